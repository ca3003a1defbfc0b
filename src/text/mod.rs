//! The words the library's messages are made of — counts in English,
//! sizes in bytes, input echoed safely — public so that every front end
//! (the command line, the server, a program of your own) words a count,
//! a size or a quoted claim as the library's own errors do.

mod echo;
mod size;
mod words;

pub use echo::{echo, excerpt, needs_escape};
pub use size::{Bytes, apart};
pub use words::{grouped, number, or_list, plural};
