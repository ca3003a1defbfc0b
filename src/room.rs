//! The messages a player's client sends to a game room (`prime-solve
//! serve`'s rooms, `docs/protocol.md`), and the one way they are read: a
//! JSON text of at most [`MAX_MESSAGE`] bytes, one object with a `type`.
//! Anything else is a [`BadMessage`] that names what was wrong, never a
//! panic, whatever the bytes.

use serde::Deserialize;
use thiserror::Error;

use crate::referee::MAX_CLAIM;

/// The longest message a client may send, in bytes.
pub const MAX_MESSAGE: usize = 4096;

/// What a client asks of the room. Fields a message does not take are
/// ignored.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The host starts the game (or, after one, a rematch with the same
    /// seats).
    Start,
    /// A claim on the cards shown.
    Call { claim: String },
    /// No call on the cards shown.
    Pass,
    /// Ready for the next cards.
    Next,
    /// Keeps a connection alive; answered with nothing.
    Ping,
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
}

/// Reads one message.
///
/// ```
/// use prime_solve::room::{BadMessage, ClientMessage, decode};
/// assert_eq!(
///     decode(r#"{"type": "call", "claim": "(6*4)/8"}"#),
///     Ok(ClientMessage::Call { claim: "(6*4)/8".into() })
/// );
/// assert!(matches!(decode(r#"{"type": "deal"}"#), Err(BadMessage::Unreadable(_))));
/// ```
///
/// # Errors
/// [`BadMessage`]: too long, a claim too long, or not one of the
/// messages (unknown type, missing or extra field, not JSON).
pub fn decode(text: &str) -> Result<ClientMessage, BadMessage> {
    if text.len() > MAX_MESSAGE {
        return Err(BadMessage::TooLong(text.len()));
    }
    let message: ClientMessage = serde_json::from_str(text).map_err(|e| {
        // serde_json's words name the field or the type, never echo the
        // whole input; cut them short all the same.
        BadMessage::Unreadable(crate::text::excerpt(&e.to_string()))
    })?;
    if let ClientMessage::Call { claim } = &message
        && claim.len() > MAX_CLAIM
    {
        return Err(BadMessage::ClaimTooLong(claim.len()));
    }
    Ok(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_and_every_refusal() {
        assert_eq!(decode(r#"{"type":"start"}"#), Ok(ClientMessage::Start));
        assert_eq!(decode(r#"{"type":"pass"}"#), Ok(ClientMessage::Pass));
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
            r#"{"type":"START"}"#,
            r#"{"claim":"1"}"#,
            "{\"type\":\"call\",\"claim\":\"\u{0}\"",
        ] {
            assert!(
                matches!(decode(bad), Err(BadMessage::Unreadable(_))),
                "{bad}"
            );
        }
        let long = format!(r#"{{"type":"call","claim":"{}"}}"#, "1".repeat(5000));
        assert_eq!(decode(&long), Err(BadMessage::TooLong(long.len())));
        let claim = "1+".repeat(MAX_CLAIM / 2 + 1);
        let message = format!(r#"{{"type":"call","claim":"{claim}"}}"#);
        assert_eq!(decode(&message), Err(BadMessage::ClaimTooLong(claim.len())));
    }
}
