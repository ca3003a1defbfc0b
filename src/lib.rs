//! prime-solve: an exact solver and analyst for David Parlett's card game
//! *Prime Time*. Cards → rules → expressions → enumeration → referee.

pub mod analysis;
pub mod arith;
pub mod card;
pub mod claim;
pub mod deck;
pub mod echo;
pub mod engine;
pub mod error;
pub mod expr;
pub mod game;
pub mod hand;
pub mod practice;
pub mod prime;
pub mod ratio;
pub mod referee;
pub mod report;
pub mod rules;
pub mod words;

pub use arith::{BinOp, Eval, Func, Value};
pub use card::Card;
pub use engine::{Solution, Solver};
pub use error::{CardError, HandError, RulesError};
pub use expr::Expr;
pub use hand::Hand;
pub use referee::{Fault, check};
pub use rules::{Faces, Functions, Rules};
