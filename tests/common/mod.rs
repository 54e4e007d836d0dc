#![allow(dead_code)]
pub mod certificate;
pub mod referee;
