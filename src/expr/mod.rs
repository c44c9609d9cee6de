//! The expression language of the Fcn block and of a model's variables: tokens (`lex`), the
//! grammar (`parse`, which states it) and the tree (`ast`). It depends on nothing else in the
//! crate: the Fcn block compiles a tree into its flat program, the model reader evaluates one
//! once ([`Expr::constant`](ast::Expr::constant)).

pub(crate) mod ast;
pub(crate) mod lex;
pub(crate) mod parse;
