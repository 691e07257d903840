//! Random ill-typed input is checked to an answer, never a panic.

use super::*;

/// A small deterministic pseudo-random generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

const BINARY_OPS: [BinaryOp; 53] = {
    use BinaryOp::*;
    [
        Add,
        Minus,
        Mul,
        Div,
        Mod,
        Power,
        Interval,
        Union,
        Inter,
        Maplet,
        Relation,
        PartialFunction,
        TotalFunction,
        PartialInjection,
        TotalInjection,
        PartialSurjection,
        TotalSurjection,
        PartialBijection,
        TotalBijection,
        DomainRestriction,
        DomainSubtraction,
        RangeRestriction,
        RangeSubtraction,
        Override,
        DirectProduct,
        Composition,
        ParallelProduct,
        Append,
        Prepend,
        Concat,
        TakeFront,
        DropFront,
        Eq,
        Neq,
        Member,
        NotMember,
        Subset,
        StrictSubset,
        NotSubset,
        NotStrictSubset,
        Lt,
        Le,
        Gt,
        Ge,
        And,
        Or,
        Implies,
        Equiv,
        Eq,
        Member,
        Subset,
        Union,
        Maplet,
    ]
};

const UNARY_OPS: [UnaryOp; 34] = {
    use UnaryOp::*;
    [
        Minus,
        Not,
        Inverse,
        Card,
        Dom,
        Ran,
        Pow,
        Pow1,
        Fin,
        Fin1,
        GeneralUnion,
        GeneralInter,
        Min,
        Max,
        Id,
        Closure,
        Closure1,
        Seq,
        Seq1,
        Iseq,
        Iseq1,
        Perm,
        First,
        Last,
        Front,
        Tail,
        Size,
        Rev,
        Conc,
        Succ,
        Pred,
        Fnc,
        Rel,
        Dom,
    ]
};

/// A random, mostly ill-typed expression over the login machine's names.
fn random_expr(rng: &mut Rng, depth: u32) -> Expr {
    const NAMES: [&str; 6] = ["active", "Session", "x", "y", "nosuch", "active$0"];
    if depth == 0 || rng.below(4) == 0 {
        return match rng.below(5) {
            0 => int(rng.below(5) as i64),
            1 => c(BuiltinConstant::EmptySet),
            2 => c(BuiltinConstant::Nat),
            3 => e(ExprKind::True),
            _ => v(NAMES[rng.below(NAMES.len())]),
        };
    }
    let d = depth - 1;
    match rng.below(10) {
        0..=3 => bin(
            BINARY_OPS[rng.below(BINARY_OPS.len())],
            random_expr(rng, d),
            random_expr(rng, d),
        ),
        4..=5 => un(UNARY_OPS[rng.below(UNARY_OPS.len())], random_expr(rng, d)),
        6 => e(ExprKind::Apply(
            Box::new(random_expr(rng, d)),
            vec![random_expr(rng, d), random_expr(rng, d)],
        )),
        7 => e(ExprKind::Quantifier(
            Quantifier::Exists,
            ids(&["x", "y"]),
            Box::new(random_expr(rng, d)),
        )),
        8 => e(ExprKind::Comprehension(
            ids(&["x"]),
            Box::new(random_expr(rng, d)),
        )),
        _ => e(ExprKind::Image(
            Box::new(random_expr(rng, d)),
            Box::new(random_expr(rng, d)),
        )),
    }
}

/// Bad input never panics: random predicates in the invariant and in an
/// operation's guard are checked to an answer.
#[test]
fn random_predicates_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..3000 {
        let mut m = login();
        let p = random_expr(&mut rng, 5);
        m.invariant = Some(bin(BinaryOp::And, m.invariant.take().unwrap(), p));
        let guard = random_expr(&mut rng, 4);
        m.operations.push(op(
            &[],
            "Random",
            &["x"],
            s(SubstKind::Select(vec![(guard, s(SubstKind::Skip))], None)),
        ));
        if let Err(errs) = check(&m) {
            assert!(!errs.is_empty() && errs.iter().all(|d| !d.message.is_empty()));
        }
    }
}
