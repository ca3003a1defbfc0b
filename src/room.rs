//! The game rooms' protocol (`prime-solve serve`'s rooms,
//! `docs/protocol.md`): the messages a player's client sends and the one
//! way they are read — a JSON text of at most [`MAX_MESSAGE`] bytes, one
//! object with a `type`; anything else is a [`BadMessage`] that names what
//! was wrong, never a panic, whatever the bytes — and every message the
//! room sends, [`ServerMessage`].

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::referee::MAX_CLAIM;

/// The longest message a client may send, in bytes.
pub const MAX_MESSAGE: usize = 4096;

/// What a client asks of the room. Fields a message does not take are
/// ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientMessage {
    /// The host starts the game (or, after one, a rematch with the same
    /// seats).
    Start,
    /// A claim on the cards of `turn`, as the `turn` message numbered them.
    Call { turn: u32, claim: String },
    /// No call on the cards of `turn`.
    Pass { turn: u32 },
    /// Ready for the next cards.
    Next,
    /// Keeps a connection alive; answered with nothing.
    Ping,
    /// The host: the next cards now, whoever is ready.
    DealNow,
    /// The host: a bot plays `seat` until its player comes back.
    HandOver { seat: usize },
    /// The host: `seat`'s player leaves the room (a bot plays the seat to
    /// the end of the game; it is free at the rematch).
    Remove { seat: usize },
    /// The host: `seat`'s player is the host now.
    MakeHost { seat: usize },
    /// The host: the game ends now, the most cards winning.
    End,
}

/// A message as it is read, before the turn a call or pass answers is
/// checked.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Read {
    Start,
    Call { turn: Option<u32>, claim: String },
    Pass { turn: Option<u32> },
    Next,
    Ping,
    DealNow,
    HandOver { seat: usize },
    Remove { seat: usize },
    MakeHost { seat: usize },
    End,
}

/// A message the room cannot take.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BadMessage {
    #[error("a message is at most {MAX_MESSAGE} bytes, this one {0}")]
    TooLong(usize),
    #[error("a claim is at most {MAX_CLAIM} bytes, this one {0}")]
    ClaimTooLong(usize),
    #[error("not a message the room takes: {0}")]
    Unreadable(String),
    /// A call or pass that does not say which turn's cards it answers.
    #[error(
        "a {0} names the turn it answers, as the turn message numbered it: {{\"type\": \"{0}\", \"turn\": 12{1}}}"
    )]
    NoTurn(&'static str, &'static str),
}

/// Reads one message.
///
/// ```
/// use prime_solve::room::{BadMessage, ClientMessage, decode};
/// assert_eq!(
///     decode(r#"{"type": "call", "turn": 1, "claim": "(6*4)/8"}"#),
///     Ok(ClientMessage::Call { turn: 1, claim: "(6*4)/8".into() })
/// );
/// assert!(matches!(decode(r#"{"type": "call", "claim": "2"}"#), Err(BadMessage::NoTurn(..))));
/// assert!(matches!(decode(r#"{"type": "deal"}"#), Err(BadMessage::Unreadable(_))));
/// ```
///
/// # Errors
/// [`BadMessage`]: too long, a claim too long, a call or pass without its
/// turn, or not one of the messages (unknown type, missing field, wrong
/// type, not JSON).
pub fn decode(text: &str) -> Result<ClientMessage, BadMessage> {
    if text.len() > MAX_MESSAGE {
        return Err(BadMessage::TooLong(text.len()));
    }
    let message: Read = serde_json::from_str(text).map_err(|e| {
        // serde_json's words name the field or the type, never echo the
        // whole input; cut them short all the same.
        BadMessage::Unreadable(crate::text::excerpt(&e.to_string()))
    })?;
    Ok(match message {
        Read::Start => ClientMessage::Start,
        Read::Next => ClientMessage::Next,
        Read::Ping => ClientMessage::Ping,
        Read::DealNow => ClientMessage::DealNow,
        Read::HandOver { seat } => ClientMessage::HandOver { seat },
        Read::Remove { seat } => ClientMessage::Remove { seat },
        Read::MakeHost { seat } => ClientMessage::MakeHost { seat },
        Read::End => ClientMessage::End,
        Read::Call { claim, .. } if claim.len() > MAX_CLAIM => {
            return Err(BadMessage::ClaimTooLong(claim.len()));
        }
        Read::Call { turn, claim } => ClientMessage::Call {
            turn: turn.ok_or(BadMessage::NoTurn("call", ", \"claim\": \"(6*4)/8\""))?,
            claim,
        },
        Read::Pass { turn } => ClientMessage::Pass {
            turn: turn.ok_or(BadMessage::NoTurn("pass", ""))?,
        },
    })
}

/// The answer to making a room: its code, the host's seat and its token
/// (sent only here), and the room's link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoomMade {
    pub code: String,
    pub seat: usize,
    pub token: String,
    pub link: String,
}

/// The answer to taking a seat: the seat and its token (sent only here).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatTaken {
    pub seat: usize,
    pub token: String,
}

/// A JSON line of an answer over HTTP.
fn line(answer: &impl Serialize) -> String {
    serde_json::to_string(answer).expect("an answer serializes") + "\n"
}

impl RoomMade {
    /// The answer as a JSON line.
    pub fn text(&self) -> String {
        line(self)
    }
}

impl SeatTaken {
    /// The answer as a JSON line.
    pub fn text(&self) -> String {
        line(self)
    }
}

/// A seat as everyone sees it: never its token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    pub seat: usize,
    pub name: String,
    /// `person` or `bot`.
    pub kind: &'static str,
    /// A bot's model.
    pub model: Option<String>,
    pub taken: bool,
    pub connected: bool,
    pub away: bool,
    /// Whether this seat's player is the host.
    pub host: bool,
    /// Cards held, during a game (and at its end).
    pub held: Option<usize>,
    /// Combinations won, during a game (and at its end).
    pub won: Option<u32>,
}

/// A room's settings, as its host chose them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SettingsView {
    pub seats: usize,
    pub endgame: &'static str,
    /// Seconds after a result before the next cards come anyway.
    pub pause: Option<u64>,
    pub limit: u64,
    pub away: u64,
    /// A model's name, or `pass`.
    pub away_as: String,
    pub window_ms: u32,
    pub turns: u32,
    /// A short game: the first to hold this many cards wins.
    pub target: Option<usize>,
}

/// The whole room, for a connection that has just come in.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoomState {
    pub code: String,
    pub you: Option<usize>,
    pub host: bool,
    /// `lobby`, `turn`, `between` or `over`.
    pub phase: &'static str,
    pub seats: Vec<SeatView>,
    pub rule_set: String,
    /// The rules as the HTTP API writes them.
    pub rules: serde_json::Value,
    pub settings: SettingsView,
    pub ready: Vec<usize>,
    pub link: Option<String>,
    pub game_over: Option<GameOverView>,
    pub games: u32,
}

/// Cards turned: the clock starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TurnView {
    pub turn: u32,
    /// The cards as shown (`Q♥`), as typed (`QH`) and what they count.
    pub cards: Vec<String>,
    pub tokens: Vec<String>,
    pub values: Vec<u8>,
    /// Whose card each is (`None`: the stockpile's).
    pub owners: Vec<Option<usize>>,
    /// Who may call.
    pub seats: Vec<usize>,
    pub hand: Option<Vec<u8>>,
    pub limit_ms: u32,
    pub held: Vec<usize>,
    pub stock: Option<usize>,
}

/// A call with the referee's ruling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerdictView {
    pub turn: u32,
    pub seat: usize,
    pub name: String,
    pub ms: u32,
    /// A person's words; `None` for a bot.
    pub claim: Option<String>,
    pub valid: bool,
    pub value: Option<u64>,
    pub fault: Option<String>,
    pub witness: Option<String>,
}

/// One seat's record over a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecordView {
    pub seat: usize,
    pub name: String,
    pub held: usize,
    pub won: u32,
    pub valid: u32,
    pub wrong: u32,
    pub passes: u32,
    pub median_ms: Option<u32>,
    pub best: Option<u64>,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameOverView {
    pub game: u32,
    /// `won`, `turns`, `target`, `played out` or `ended`.
    pub reason: &'static str,
    /// Why it ended and who won, in a sentence ("Bob could not give nine
    /// cards to a new stockpile. Ann wins.").
    pub why: String,
    pub winner: Option<usize>,
    pub turns: u32,
    pub records: Vec<RecordView>,
}

/// Every message a room sends.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    State(Box<RoomState>),
    /// Whenever a seat is taken, comes or goes.
    Seats {
        seats: Vec<SeatView>,
    },
    /// The host has started; the table's hands are being worked out.
    Preparing,
    Start {
        game: u32,
        seats: Vec<SeatView>,
    },
    Turn(TurnView),
    Verdict(VerdictView),
    /// To the caller alone: the claim could not be read; call again.
    NotACall {
        turn: u32,
        claim: String,
        why: String,
    },
    Passed {
        turn: u32,
        seat: usize,
        ms: u32,
    },
    Won {
        turn: u32,
        seat: usize,
        prime: Option<u64>,
        held: Vec<usize>,
        stock: Option<usize>,
        /// When the next cards come, in ms, unless everyone is ready
        /// sooner; `None`: when everyone is.
        next_in_ms: Option<u64>,
    },
    Buried {
        turn: u32,
        /// `tie`, `no call` or `no prime`.
        why: &'static str,
        seats: Vec<usize>,
        held: Vec<usize>,
        stock: Option<usize>,
        next_in_ms: Option<u64>,
    },
    Ready {
        ready: Vec<usize>,
    },
    GameOver(GameOverView),
    Error {
        error: String,
        /// The turn a refused call or pass named.
        #[serde(skip_serializing_if = "Option::is_none")]
        turn: Option<u32>,
    },
}

impl ServerMessage {
    /// An error, answering no turn.
    pub fn error(error: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            error: error.into(),
            turn: None,
        }
    }

    /// The message as JSON text.
    ///
    /// # Panics
    /// Never: every field serializes.
    pub fn text(&self) -> String {
        serde_json::to_string(self).expect("a message serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_and_every_refusal() {
        assert_eq!(decode(r#"{"type":"start"}"#), Ok(ClientMessage::Start));
        assert_eq!(
            decode(r#"{"type":"pass","turn":3}"#),
            Ok(ClientMessage::Pass { turn: 3 })
        );
        for no_turn in [r#"{"type":"pass"}"#, r#"{"type":"call","claim":"2"}"#] {
            let e = decode(no_turn).unwrap_err();
            assert!(matches!(e, BadMessage::NoTurn(..)), "{no_turn}");
            assert!(e.to_string().contains(r#""turn": 12"#), "{e}");
        }
        assert_eq!(decode(r#"{"type":"next"}"#), Ok(ClientMessage::Next));
        assert_eq!(decode(r#"{"type":"ping"}"#), Ok(ClientMessage::Ping));
        assert_eq!(
            decode(r#"{"type":"start","seat":1}"#),
            Ok(ClientMessage::Start),
            "a seat is never taken from a message"
        );
        for bad in [
            "",
            "null",
            "[]",
            r#"{"type":"call"}"#,
            r#"{"type":"call","claim":7}"#,
            r#"{"type":"call","turn":"1","claim":"7"}"#,
            r#"{"type":"call","turn":-1,"claim":"7"}"#,
            r#"{"type":"START"}"#,
            r#"{"claim":"1"}"#,
            "{\"type\":\"call\",\"claim\":\"\u{0}\"",
        ] {
            assert!(
                matches!(decode(bad), Err(BadMessage::Unreadable(_))),
                "{bad}"
            );
        }
        let long = format!(
            r#"{{"type":"call","turn":1,"claim":"{}"}}"#,
            "1".repeat(5000)
        );
        assert_eq!(decode(&long), Err(BadMessage::TooLong(long.len())));
        let claim = "1+".repeat(MAX_CLAIM / 2 + 1);
        let message = format!(r#"{{"type":"call","turn":1,"claim":"{claim}"}}"#);
        assert_eq!(decode(&message), Err(BadMessage::ClaimTooLong(claim.len())));
    }
}
