//! The game simulator: the full rules of Prime Time for three or more
//! players and for two, player models, and many seeded games in parallel.

pub mod calls;
pub mod live;
pub mod paired;
pub mod play;
pub mod player;
pub mod sim;
pub mod turn;

pub use calls::CallBook;
pub use live::{Live, Tally};
pub use paired::{PairedRun, paired};
pub use play::{Duel, Endgame, Game, Multi, Record, Setup};
pub use player::{Draws, Model, Models, Strategy};
pub use sim::{Simulation, Summary, simulate};
pub use turn::Timing;
