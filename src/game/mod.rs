//! The game simulator: the full rules of Prime Time for three or more
//! players and for two, player models, and many seeded games in parallel.
//! Its files are private; everything they offer is named here, once.

mod calls;
mod live;
mod paired;
mod play;
mod player;
mod sim;
mod turn;

pub use calls::{CallBook, Callable};
pub use live::{
    Burial, Ending, Ends, Event, GameOver, Live, Made, Person, Refused, Round, Stage, Tally,
};
pub use paired::{PairedRun, paired};
pub use play::{
    Board, CardId, Duel, End, Endgame, Game, Multi, PACK_SIZE, Record, STOCK_SHARE, Setup, Shown,
    leader, play,
};
pub use player::{Draws, MAX_MODELS, MAX_MODELS_FILE, Model, ModelError, Models, Strategy};
pub use sim::{
    BOOTSTRAP_RESAMPLES, Phase, SimError, Simulation, Spread, Summary, bootstrap, median_turns,
    simulate, wilson,
};
pub use turn::{Call, MAX_WINDOW_MS, Outcome, Timing, TimingError, resolve};
