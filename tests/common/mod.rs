#![allow(dead_code)]
pub mod analytic;
pub mod bench_cli;
pub mod certificate;
pub mod exact;
pub mod fuzz;
pub mod gpu;
pub mod one_pair;
pub mod picture;
pub mod poses;
pub mod query_cli;
pub mod referee;
pub mod round;
pub mod xvfb;
