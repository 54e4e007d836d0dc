//! The power of two that brings a pair to unit scale before GJK and EPA, and the float32 layout it is read
//! from.

/// Bits of a float32's mantissa (IEEE 754 binary32): the exponent starts above them.
pub const F32_MANTISSA_BITS: u32 = 23;
/// The bias of a float32's exponent.
pub const F32_EXPONENT_BIAS: i32 = 127;
/// The largest exponent a unit may undo: 2^126 and 2^-126 are normal float32 numbers.
pub const UNIT_MAX_EXPONENT: i32 = 126;
/// How far apart (in powers of two of the offset) shapes may be before the offset, not the scale, sets the unit:
/// 2^60 squared stays far below float32's largest number.
pub const UNIT_OFFSET_EXPONENTS: i32 = 60;

/// The power of two that brings a pair to unit scale: every coordinate is multiplied by it before any GJK or
/// EPA arithmetic (see [`crate::gjk::PairSupport`]) and the answer divided by it afterwards, which is exact.
///
/// `scale` is [`crate::gjk::pair_scale`]; `offset` the largest coordinate of B's position relative to A. The unit brings the
/// scale into [1, 2), unless the shapes are more than 2^60 of their size apart, where it keeps the offset below
/// 2^60 so that its square cannot overflow float32 (the shapes are then points at that distance anyway). Both
/// the CPU and the WGSL twin (`pair_unit` in `shaders/shared/pair.wgsl`) read the exponent from the float32 bits,
/// so they pick the same unit.
pub fn pair_unit(scale: f32, offset: f32) -> f32 {
    let exponent = |x: f32| ((x.to_bits() >> F32_MANTISSA_BITS) & 0xff) as i32 - F32_EXPONENT_BIAS;
    let mut e = if scale > 0.0 {
        exponent(scale)
    } else if offset > 0.0 {
        exponent(offset)
    } else {
        0
    };
    if offset > 0.0 {
        e = e.max(exponent(offset) - UNIT_OFFSET_EXPONENTS);
    }
    let e = e.clamp(-UNIT_MAX_EXPONENT, UNIT_MAX_EXPONENT);
    f32::from_bits(((F32_EXPONENT_BIAS - e) as u32) << F32_MANTISSA_BITS)
}

#[cfg(test)]
mod unit_tests {
    use super::pair_unit;

    #[test]
    fn the_unit_brings_the_scale_to_one_or_two_and_is_a_power_of_two() {
        for scale in [1e-30f32, 1e-23, 3e-7, 0.7, 1.0, 1.5, 2.0, 1000.0, 1.7e9] {
            let unit = pair_unit(scale, scale);
            let normalised = scale * unit;
            assert!((1.0..2.0).contains(&normalised), "{scale} -> {normalised}");
            assert_eq!(unit.to_bits() & 0x7f_ffff, 0, "a power of two");
        }
        // Zero scale (two points): the offset sets the unit.
        assert_eq!(pair_unit(0.0, 0.0), 1.0);
        assert!((1.0..2.0).contains(&(8.0 * pair_unit(0.0, 8.0))));
        // Tiny shapes far apart: the offset stays below 2^60 in normalised units.
        let unit = pair_unit(1e-20, 1e9);
        assert!(1e9 * unit < 2f32.powi(61));
    }
}
