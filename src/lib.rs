//! prime-solve: an exact solver and analyst for David Parlett's card game
//! *Prime Time*. Cards → rules → expressions → enumeration → referee.

pub mod advise;
pub mod analysis;
mod arith;
mod card;
pub mod claim;
pub mod deck;
pub mod engine;
pub mod error;
pub mod expr;
pub mod game;
mod hand;
pub mod pack;
pub mod practice;
pub mod prime;
pub mod ratio;
pub mod referee;
#[cfg(feature = "report")]
pub mod report;
pub mod rng;
pub mod rules;
pub mod stats;
mod style;
pub mod text;

pub use arith::{BinOp, Eval, Func, Value};
pub use card::{CARD_FORMS, Card, Rank, Suit};
pub use engine::{Answer, HandValues, Solution, Solver, ValueSets, Want};
pub use error::{CardError, HandError, RulesError};
pub use expr::Expr;
pub use hand::{Hand, MAX_CARDS, MIN_CARDS};
pub use pack::MAX_CARD_VALUE;
pub use referee::{Fault, check};
pub use rules::{Faces, Functions, Rules};
pub use style::{Brackets, Style};
