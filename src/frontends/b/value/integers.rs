//! B's integer arithmetic beyond 64 bits.
//!
//! The interpreter computes in `i64` and comes here only where an operand
//! is a [`Value::Big`] or the 64-bit result overflows: the result is then
//! computed exactly and normalised by [`Value::integer`] (an `Int` again
//! where it fits). Division truncates towards zero and `mod` takes the sign
//! of its (non-negative) dividend, as in 64 bits.

use super::Value;
use num_bigint::BigInt;

/// An arithmetic operator on integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b` (truncated towards zero).
    Div,
    /// `a mod b`.
    Mod,
    /// `a ** b`.
    Pow,
}

/// The largest result of `**` computed, in bits: beyond it the power is
/// refused rather than filling memory (2 ** 1000000 has a million bits).
pub const MAX_POWER_BITS: u64 = 1 << 24;

/// Why an integer operation has no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntError {
    /// Division or `mod` by zero.
    DivisionByZero,
    /// `mod` with a negative operand.
    NegativeMod,
    /// `**` with a negative exponent.
    NegativeExponent,
    /// A power of more than [`MAX_POWER_BITS`] bits.
    TooLarge,
}

impl IntError {
    /// The message for the error, as the 64-bit arithmetic words it.
    pub fn message(&self, op: IntOp) -> String {
        match self {
            IntError::DivisionByZero if op == IntOp::Div => "division by zero".into(),
            IntError::DivisionByZero => "modulo by zero".into(),
            IntError::NegativeMod => "mod with a negative operand".into(),
            IntError::NegativeExponent => "negative exponent".into(),
            IntError::TooLarge => format!("a power of more than {MAX_POWER_BITS} bits"),
        }
    }
}

/// `a op b` for integers of any size.
pub fn binary(op: IntOp, a: &BigInt, b: &BigInt) -> Result<Value, IntError> {
    let zero = BigInt::from(0);
    Ok(Value::integer(match op {
        IntOp::Add => a + b,
        IntOp::Sub => a - b,
        IntOp::Mul => a * b,
        IntOp::Div | IntOp::Mod if *b == zero => return Err(IntError::DivisionByZero),
        IntOp::Div => a / b,
        IntOp::Mod if *a < zero || *b < zero => return Err(IntError::NegativeMod),
        IntOp::Mod => a % b,
        IntOp::Pow if *b < zero => return Err(IntError::NegativeExponent),
        IntOp::Pow => {
            // 0, 1 and -1 stay small under any exponent.
            if a.magnitude() <= &num_bigint::BigUint::from(1u8) {
                let odd = b.bit(0);
                return Ok(Value::Int(match i64::try_from(a).expect("-1, 0 or 1") {
                    0 if *b == zero => 1,
                    0 => 0,
                    -1 if odd => -1,
                    _ => 1,
                }));
            }
            let bits = u64::try_from(b)
                .ok()
                .and_then(|e| a.bits().checked_mul(e))
                .filter(|&bits| bits <= MAX_POWER_BITS)
                .ok_or(IntError::TooLarge)?;
            debug_assert!(bits <= MAX_POWER_BITS);
            a.pow(u32::try_from(b).expect("bounded by MAX_POWER_BITS"))
        }
    }))
}

/// `-a`.
pub fn negate(a: &BigInt) -> Value {
    Value::integer(-a)
}

/// `a op b` where `a` and `b` are values: `None` if either is not an
/// integer.
pub fn binary_values(op: IntOp, a: &Value, b: &Value) -> Option<Result<Value, IntError>> {
    Some(binary(op, &a.as_integer()?, &b.as_integer()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(text: &str) -> BigInt {
        text.parse().unwrap()
    }

    #[test]
    fn results_are_normalised_to_64_bits_where_they_fit() {
        let max = BigInt::from(i64::MAX);
        let over = binary(IntOp::Add, &max, &BigInt::from(1)).unwrap();
        assert_eq!(
            over,
            Value::Big(std::sync::Arc::new(big("9223372036854775808")))
        );
        let back = binary(IntOp::Sub, &over.as_integer().unwrap(), &BigInt::from(1)).unwrap();
        assert_eq!(back, Value::Int(i64::MAX));
        // i64::MIN is an Int, its negation a Big.
        assert_eq!(negate(&big("9223372036854775808")), Value::Int(i64::MIN));
        assert!(matches!(negate(&BigInt::from(i64::MIN)), Value::Big(_)));
    }

    #[test]
    fn division_and_mod_follow_the_64_bit_rules() {
        let a = big("-100000000000000000000");
        let d = binary(IntOp::Div, &a, &BigInt::from(7)).unwrap();
        assert_eq!(d.as_integer().unwrap(), big("-14285714285714285714"));
        assert_eq!(
            binary(IntOp::Mod, &big("100000000000000000000"), &BigInt::from(7)),
            Ok(Value::Int(2))
        );
        assert_eq!(
            binary(IntOp::Mod, &a, &BigInt::from(7)),
            Err(IntError::NegativeMod)
        );
        assert_eq!(
            binary(IntOp::Div, &a, &BigInt::from(0)),
            Err(IntError::DivisionByZero)
        );
    }

    #[test]
    fn powers_are_exact_and_bounded() {
        let p = binary(IntOp::Pow, &BigInt::from(2), &BigInt::from(100)).unwrap();
        assert_eq!(
            p.as_integer().unwrap(),
            big("1267650600228229401496703205376")
        );
        assert_eq!(
            binary(IntOp::Pow, &BigInt::from(-1), &big("100000000000000000001")),
            Ok(Value::Int(-1))
        );
        assert_eq!(
            binary(IntOp::Pow, &BigInt::from(0), &BigInt::from(0)),
            Ok(Value::Int(1))
        );
        assert_eq!(
            binary(
                IntOp::Pow,
                &BigInt::from(2),
                &BigInt::from(MAX_POWER_BITS as i64 + 1)
            ),
            Err(IntError::TooLarge)
        );
        assert_eq!(
            binary(IntOp::Pow, &BigInt::from(2), &BigInt::from(-1)),
            Err(IntError::NegativeExponent)
        );
    }
}
