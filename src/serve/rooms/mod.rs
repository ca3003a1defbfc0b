//! Game rooms: every player's phone a seat, the server dealing, timing and
//! refereeing (`docs/protocol.md`). A room is a task of its own
//! (`room.rs`); this file keeps the list of rooms and answers the
//! requests that create one, take a seat, and connect a seat's WebSocket,
//! with the limits that keep strangers out and the server up.
//!
//! - `room`: one room's life, lobby to rematch;
//! - `secret`: seat tokens and room codes.

mod room;
pub(crate) mod secret;

use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tokio::sync::{mpsc, oneshot};

use prime_solve::game::{CallBook, Endgame, Model};
use prime_solve::room::{GameOverView, MAX_MESSAGE, RoomMade, SeatTaken, ServerMessage, decode};
use prime_solve::{Budget, Rules};

use super::Shared;
use super::api::{Params, Refusal, flat, json_response, rules_among};
use super::limit::Shares;
use room::{Command, JoinError, Room, Settings};
use secret::Token;

/// Messages a second a connection may send, and the burst it may save up.
const PER_SECOND: f64 = 25.0;
const BURST: f64 = 50.0;
/// Faults (unreadable, too many, not allowed now) after which a
/// connection is closed.
const MAX_FAULTS: u32 = 10;
/// The longest name a player may give, in characters.
const MAX_NAME: usize = 24;
/// Rule sets whose call books are kept.
const BOOKS: usize = 16;
/// The longest a table's call book may take to work out, and the memory
/// it may use.
const BOOK_TIME: Duration = Duration::from_secs(60);
const BOOK_MEMORY: u64 = 2 << 30;

/// Every room, and what the rooms share.
pub(crate) struct Rooms {
    map: Mutex<HashMap<String, mpsc::Sender<Command>>>,
    max_rooms: usize,
    /// Each address's share of failed joins and connections (a wrong
    /// code or token): codes cannot be tried one after another.
    failures: Shares,
    /// Each address's share of rooms made.
    made: Shares,
    books: Mutex<HashMap<(Rules, usize), Arc<CallBook>>>,
    /// The one place for working out a call book.
    building: Arc<tokio::sync::Semaphore>,
    /// Tables whose book could not be worked out, and why: asked again,
    /// they are refused at once, not worked out again.
    failed_books: Mutex<HashMap<(Rules, usize), String>>,
    /// How long each kind of game lasts at a table, worked out once:
    /// the answers of `/api/v1/rooms/lengths`.
    lengths: Mutex<HashMap<(Rules, usize, Endgame), String>>,
    record: Option<PathBuf>,
    writing: tokio::sync::Mutex<()>,
    /// `HOST:PORT` phones on the network reach this server at (`--lan`):
    /// the rooms' links and QR codes name it.
    pub(crate) lan: std::sync::OnceLock<String>,
}

impl Rooms {
    pub(crate) fn new(max_rooms: usize, rooms_per_minute: u32, record: Option<PathBuf>) -> Rooms {
        Rooms {
            map: Mutex::new(HashMap::new()),
            max_rooms,
            failures: Shares::new(20),
            made: Shares::new(rooms_per_minute),
            books: Mutex::new(HashMap::new()),
            building: Arc::new(tokio::sync::Semaphore::new(1)),
            failed_books: Mutex::new(HashMap::new()),
            lengths: Mutex::new(HashMap::new()),
            record,
            writing: tokio::sync::Mutex::new(()),
            lan: std::sync::OnceLock::new(),
        }
    }

    fn get(&self, code: &str) -> Option<mpsc::Sender<Command>> {
        self.map
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(code)
            .cloned()
    }

    fn remove(&self, code: &str) {
        self.map
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(code);
    }

    /// The call book of a table already worked out, if it is kept.
    fn cached_book(&self, rules: Rules, seats: usize) -> Option<Arc<CallBook>> {
        self.books
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&(rules, seats))
            .cloned()
    }

    /// The call book of a table of `seats` under `rules`: every hand the
    /// table can show with its primes, worked out once (off the server's
    /// threads) and kept for the next room.
    async fn book(&self, rules: Rules, seats: usize) -> Result<Arc<CallBook>, String> {
        if let Some(book) = self.cached_book(rules, seats) {
            return Ok(book);
        }
        if let Some(why) = self
            .failed_books
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&(rules, seats))
        {
            return Err(why.clone());
        }
        match self.build_book(rules, seats).await {
            Ok(book) => Ok(book),
            Err((why, for_good)) => {
                if for_good {
                    let mut failed = self
                        .failed_books
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner);
                    if failed.len() >= BOOKS {
                        failed.clear();
                    }
                    failed.insert((rules, seats), why.clone());
                }
                Err(why)
            }
        }
    }

    /// Works out the call book of a table, one at a time, within
    /// [`BOOK_TIME`] and [`BOOK_MEMORY`]; an error says why, and whether it
    /// is for good (the rules) or for now (another book in the works).
    async fn build_book(
        &self,
        rules: Rules,
        seats: usize,
    ) -> Result<Arc<CallBook>, (String, bool)> {
        // One book is worked out at a time, within a time limit: a table of
        // six under costly rules is a sweep of every six-card hand.
        let place = tokio::time::timeout(BOOK_TIME, Arc::clone(&self.building).acquire_owned())
            .await
            .map_err(|_| {
                (
                    "the server is working out another table's hands: try again shortly"
                        .to_string(),
                    false,
                )
            })?
            .map_err(|_| ("the server is stopping".to_string(), false))?;
        if let Some(book) = self.cached_book(rules, seats) {
            return Ok(book);
        }
        let sizes: Vec<usize> = if seats == 2 {
            vec![3]
        } else {
            (2..=seats).collect()
        };
        let budget = Budget::new(BOOK_MEMORY);
        let charged = Arc::clone(&budget);
        let task = tokio::task::spawn_blocking(move || {
            let built = CallBook::new(rules, &sizes, &charged);
            drop(place);
            built
        });
        let built = match tokio::time::timeout(BOOK_TIME, task).await {
            Ok(Ok(Ok(book))) => book,
            Ok(Ok(Err(e))) => {
                return Err((
                    format!(
                        "the table's hands cannot be worked out here: {e}; use fewer seats or house rules"
                    ),
                    true,
                ));
            }
            Ok(Err(_)) => {
                return Err((
                    "the table's hands could not be worked out".to_string(),
                    false,
                ));
            }
            Err(_) => {
                // Stopped at its next allocation; its place is freed then.
                budget.set_limit(0);
                return Err((
                    format!(
                        "working out every hand a table of {seats} can show under these rules takes longer than {} s: use fewer seats or house rules",
                        BOOK_TIME.as_secs()
                    ),
                    true,
                ));
            }
        };
        let book = Arc::new(built);
        let mut books = self.books.lock().unwrap_or_else(PoisonError::into_inner);
        if books.len() >= BOOKS {
            books.clear();
        }
        books.insert((rules, seats), Arc::clone(&book));
        Ok(book)
    }

    /// Appends a finished game to the record, one line written whole and
    /// synced, so that a crash loses no finished game.
    async fn record(&self, over: &GameOverView, code: &str, settings: &Settings) {
        let Some(path) = self.record.clone() else {
            return;
        };
        let line = RecordLine {
            code,
            finished: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            rule_set: settings.rules.name(),
            seats: settings.seats,
            bots: settings.bots.iter().map(|m| m.name.to_string()).collect(),
            endgame: settings.endgame.name(),
            game: &ServerMessage::GameOver(over.clone()),
        };
        let line = serde_json::to_string(&line).unwrap_or_default() + "\n";
        let _guard = self.writing.lock().await;
        let _ = tokio::task::spawn_blocking(move || append(&path, line.as_bytes())).await;
    }
}

/// One finished game in the record.
#[derive(serde::Serialize)]
struct RecordLine<'a> {
    code: &'a str,
    /// Seconds since 1970.
    finished: u64,
    rule_set: String,
    seats: usize,
    bots: Vec<String>,
    endgame: &'static str,
    /// The `game_over` message, as the room sent it.
    game: &'a ServerMessage,
}

/// Appends `bytes` to `path` in one write, then syncs it.
///
/// # Errors
/// The file's error, if it cannot be opened or written.
pub(crate) fn append(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_data()
}

fn refuse(status: StatusCode, message: impl Into<String>) -> Response {
    Refusal {
        status,
        message: message.into(),
    }
    .into_response()
}

/// The room `code` names, as asked by `ip`: its code read as typed and
/// its channel. An address that has spent its share of failures is
/// refused alike whether the code is a room's or not (429), so that a
/// refusal tells nothing about a code; an unknown code is a failure (404).
fn find(rooms: &Rooms, ip: IpAddr, code: &str) -> Result<(String, mpsc::Sender<Command>), Refusal> {
    if rooms.failures.spent(ip) {
        return Err(locked_out());
    }
    let found = secret::read_code(code).and_then(|c| rooms.get(&c).map(|room| (c, room)));
    match found {
        Some(found) => Ok(found),
        None if rooms.failures.take(ip) => Err(Refusal {
            status: StatusCode::NOT_FOUND,
            message: "no room has this code".into(),
        }),
        None => Err(locked_out()),
    }
}

/// A failed join or connection from `ip`: 404 (or 403), or 429 once its
/// share of failures is spent.
fn failed(rooms: &Rooms, ip: IpAddr, status: StatusCode, message: &str) -> Response {
    if rooms.failures.take(ip) {
        refuse(status, message)
    } else {
        locked_out().into_response()
    }
}

/// The refusal of an address that has spent its share of failures.
fn locked_out() -> Refusal {
    Refusal {
        status: StatusCode::TOO_MANY_REQUESTS,
        message: "too many wrong room codes or tokens from this address: wait a minute".into(),
    }
}

/// A player's name as given: trimmed, 1-24 characters, no control
/// characters.
fn name(params: &BTreeMap<String, String>, default: &str) -> Result<String, Refusal> {
    let given = params.get("name").map_or(default, |n| n.trim());
    if given.is_empty() {
        return Err(Refusal::bad("give a name: name=Ann"));
    }
    if given.chars().count() > MAX_NAME || given.chars().any(char::is_control) {
        return Err(Refusal::bad(format!(
            "a name is 1 to {MAX_NAME} characters, none of them control characters"
        )));
    }
    Ok(given.to_string())
}

fn model(name: &str) -> Result<Model, Refusal> {
    Model::ALL
        .iter()
        .find(|m| m.name == name)
        .cloned()
        .ok_or_else(|| {
            Refusal::bad(format!(
                "`{}` is not a bot: {}",
                prime_solve::text::excerpt(name),
                prime_solve::text::or_list(
                    &Model::ALL
                        .iter()
                        .map(|m| m.name.to_string())
                        .collect::<Vec<_>>()
                )
            ))
        })
}

fn seconds(
    params: &BTreeMap<String, String>,
    key: &str,
    default: u64,
    range: std::ops::RangeInclusive<u64>,
) -> Result<u64, Refusal> {
    match params.get(key).map(|v| v.parse::<u64>()) {
        None => Ok(default),
        Some(Ok(n)) if range.contains(&n) => Ok(n),
        Some(_) => Err(Refusal::bad(format!(
            "{key} is a number of seconds from {} to {}",
            range.start(),
            range.end()
        ))),
    }
}

/// The host's choices: the seats, the bots, the endgame, the pace, and
/// the house rules as the API names them.
fn settings(params: &BTreeMap<String, String>) -> Result<Settings, Refusal> {
    const OWN: [&str; 11] = [
        "target",
        "seats",
        "bots",
        "endgame",
        "pause",
        "limit",
        "away",
        "away_as",
        "name",
        "window_ms",
        "turns",
    ];
    let rules = rules_among(params, &OWN)?;
    let seats = match params.get("seats").map(|s| s.parse::<usize>()) {
        None => 3,
        Some(Ok(n @ 2..=6)) => n,
        Some(_) => return Err(Refusal::bad("seats is 2 to 6")),
    };
    let bots = params
        .get("bots")
        .map(|b| {
            b.split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(model)
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?
        .unwrap_or_default();
    if bots.len() >= seats {
        return Err(Refusal::bad(format!(
            "{} bots leave no seat for the host: give at most {}",
            bots.len(),
            seats - 1
        )));
    }
    let endgame = match params.get("endgame") {
        None => Endgame::default(),
        Some(e) => *Endgame::ALL.iter().find(|g| g.name() == e).ok_or_else(|| {
            Refusal::bad("endgame is stockpile, two-cards, first-out, trailing-two or leading-two")
        })?,
    };
    // The pause between a result and the next cards; "everyone" (or 0):
    // only when everyone present has pressed next.
    let pause = match params.get("pause").map(String::as_str) {
        Some("everyone") => 0,
        _ => seconds(params, "pause", DEFAULT_PAUSE, 0..=300)?,
    };
    let away_model = match params.get("away_as").map(String::as_str) {
        None => Some(Model::CLUB),
        Some("pass") => None,
        Some(m) => Some(model(m)?),
    };
    Ok(Settings {
        rules,
        seats,
        bots,
        endgame,
        pause: (pause > 0).then(|| Duration::from_secs(pause)),
        limit: Duration::from_secs(seconds(params, "limit", 30, 5..=300)?),
        away: Duration::from_secs(seconds(params, "away", 60, 1..=3600)?),
        away_model,
        window_ms: match params.get("window_ms").map(|v| v.parse::<u32>()) {
            None => prime_solve::game::Timing::default().override_window_ms,
            Some(Ok(ms @ 100..=10_000)) => ms,
            Some(_) => return Err(Refusal::bad("window_ms is 100 to 10000")),
        },
        turns: match params.get("turns").map(|v| v.parse::<u32>()) {
            None => 3000,
            Some(Ok(n @ 1..=3000)) => n,
            Some(_) => return Err(Refusal::bad("turns is 1 to 3000")),
        },
        target: match params.get("target").map(|v| v.parse::<usize>()) {
            None => None,
            Some(Ok(n @ 5..=54)) => Some(n),
            Some(_) => return Err(Refusal::bad("target is a number of cards from 5 to 54")),
        },
    })
}

/// Seconds between a result and the next cards, unless everyone present
/// has pressed next sooner.
const DEFAULT_PAUSE: u64 = 8;

/// The kinds of game the page offers a room: the whole game, first to 27
/// or 36 cards, 30 or 60 turns (`""`, `target=N`, `turns=N`).
const LENGTHS: [(&str, Option<usize>, u32); 5] = [
    ("", None, 3000),
    ("target=27", Some(27), 3000),
    ("target=36", Some(36), 3000),
    ("turns=30", None, 30),
    ("turns=60", None, 60),
];

/// Games simulated for each kind.
const LENGTH_GAMES: u64 = 100;

/// How long a turn takes at a table of people, in seconds: a `casual`
/// player's median first call (7.1 s, docs/guide.md), the window for a
/// higher prime (1.5 s) and the default pause before the next cards (8 s).
const SECONDS_PER_TURN: f64 = 16.6;

/// `POST /api/v1/rooms/lengths` with a room's settings (as a room is
/// made): how many turns each kind of game the page offers lasts at that
/// table, the median of games simulated between `casual` players, and
/// about how many minutes that is.
pub(super) async fn lengths(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    let settings = match flat(&body).and_then(|p| settings(&p)) {
        Ok(s) => s,
        Err(refusal) => return refusal.into_response(),
    };
    let rooms = Arc::clone(&shared.rooms);
    let key = (settings.rules, settings.seats, settings.endgame);
    let known = rooms
        .lengths
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
        .cloned();
    if let Some(answer) = known {
        return json_response(StatusCode::OK, answer);
    }
    let book = match rooms.book(settings.rules, settings.seats).await {
        Ok(book) => book,
        Err(why) => return refuse(StatusCode::SERVICE_UNAVAILABLE, why),
    };
    let worked = tokio::task::spawn_blocking(move || {
        let timing = prime_solve::game::Timing::default();
        let players = vec![Model::CASUAL; settings.seats];
        let setup = prime_solve::game::Setup::new(&book, players, settings.rules.faces, timing);
        let games = LENGTHS
            .iter()
            .map(|&(game, target, max_turns)| {
                let ends = prime_solve::game::Ends {
                    max_turns,
                    target,
                    ..Default::default()
                };
                let turns = prime_solve::game::median_turns(
                    &setup,
                    settings.rules,
                    settings.endgame,
                    ends,
                    LENGTH_GAMES,
                    1,
                );
                GameLength {
                    game,
                    turns,
                    #[allow(
                        clippy::cast_possible_truncation,
                        clippy::cast_sign_loss,
                        reason = "minutes of a game, far within u32"
                    )]
                    minutes: turns.map(|t| (f64::from(t) * SECONDS_PER_TURN / 60.0).round() as u32),
                }
            })
            .collect();
        Lengths {
            schema: prime_solve::report::json::SCHEMA,
            seconds_per_turn: SECONDS_PER_TURN,
            games,
        }
        .text()
    })
    .await;
    match worked {
        Ok(answer) => {
            let mut known = rooms.lengths.lock().unwrap_or_else(PoisonError::into_inner);
            if known.len() >= BOOKS {
                known.clear();
            }
            known.insert(key, answer.clone());
            json_response(StatusCode::OK, answer)
        }
        Err(_) => refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the lengths could not be worked out",
        ),
    }
}

/// How long each kind of game lasts at a table.
#[derive(serde::Serialize)]
struct Lengths {
    schema: u32,
    seconds_per_turn: f64,
    games: Vec<GameLength>,
}

/// One kind of game: as the room takes it (`target=27`), its median
/// turns and about how many minutes.
#[derive(serde::Serialize)]
struct GameLength {
    game: &'static str,
    turns: Option<u32>,
    minutes: Option<u32>,
}

impl Lengths {
    fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default() + "\n"
    }
}

/// `POST /api/v1/rooms`: a room with the host in seat 0.
pub(super) async fn create(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Bytes,
) -> Response {
    let made = (|| {
        let params = flat(&body)?;
        let settings = settings(&params)?;
        let host = name(&params, "host")?;
        Ok::<_, Refusal>((settings, host))
    })();
    let (settings, host) = match made {
        Ok(m) => m,
        Err(refusal) => return refusal.into_response(),
    };
    let rooms = &shared.rooms;
    if !rooms.made.take(peer.ip()) {
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            "this address has made its share of rooms for now: wait a minute",
        );
    }
    let (Some(token), Some(mut code)) = (Token::fresh(), secret::code()) else {
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "no random source: no room can be made",
        );
    };
    let (tx, rx) = mpsc::channel(256);
    {
        let mut map = rooms.map.lock().unwrap_or_else(PoisonError::into_inner);
        if map.len() >= rooms.max_rooms {
            return refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                "this server holds as many rooms as it may: try again later",
            );
        }
        while map.contains_key(&code) {
            match secret::code() {
                Some(c) => code = c,
                None => return refuse(StatusCode::SERVICE_UNAVAILABLE, "no random source"),
            }
        }
        map.insert(code.clone(), tx);
    }
    let room = Room::new(code.clone(), settings, (host, token), Arc::clone(rooms));
    tokio::spawn(room::run(room, rx));
    json_response(
        StatusCode::CREATED,
        RoomMade {
            link: format!("/room/{code}"),
            code,
            seat: 0,
            token: token.to_string(),
        }
        .text(),
    )
}

/// `POST /api/v1/rooms/{code}/join` with `{"name": "Ann"}`: a seat and its
/// token.
pub(super) async fn join(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
    body: Bytes,
) -> Response {
    let room = match find(&shared.rooms, peer.ip(), &code) {
        Ok((_, room)) => room,
        Err(refused) => return refused.into_response(),
    };
    let params = match flat(&body) {
        Ok(p) => p,
        Err(refusal) => return refusal.into_response(),
    };
    let name = match name(&params, "") {
        Ok(n) => n,
        Err(refusal) => return refusal.into_response(),
    };
    let (reply, answer) = oneshot::channel();
    if room.send(Command::Join { name, reply }).await.is_err() {
        return refuse(StatusCode::NOT_FOUND, "the room has closed");
    }
    match answer.await {
        Ok(Ok((seat, token))) => json_response(
            StatusCode::OK,
            SeatTaken {
                seat,
                token: token.to_string(),
            }
            .text(),
        ),
        Ok(Err(JoinError::Full)) => refuse(StatusCode::CONFLICT, "every seat is taken"),
        Ok(Err(JoinError::Started)) => refuse(
            StatusCode::CONFLICT,
            "the game has started: watch it, and take a seat at the rematch if one is free",
        ),
        Err(_) => refuse(StatusCode::NOT_FOUND, "the room has closed"),
    }
}

/// Whether a browser's request comes from a page of this server: its
/// `Origin`, if it sends one, names the host it asked.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let (Ok(origin), Some(Ok(host))) = (
        origin.to_str(),
        headers.get(header::HOST).map(|h| h.to_str()),
    ) else {
        return false;
    };
    origin == format!("http://{host}") || origin == format!("https://{host}")
}

/// `GET /api/v1/rooms/{code}/ws?token=...` (a seat) or `?watch=1` (a
/// table view): the room's WebSocket.
pub(super) async fn socket(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
    Params(params): Params,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let rooms = Arc::clone(&shared.rooms);
    let ip = peer.ip();
    if !same_origin(&headers) {
        return refuse(
            StatusCode::FORBIDDEN,
            "a page of another site cannot join a room here",
        );
    }
    let room = match find(&rooms, ip, &code) {
        Ok((_, room)) => room,
        Err(refused) => return refused.into_response(),
    };
    let token = match (params.get("token"), params.get("watch")) {
        (Some(t), _) => match Token::parse(t) {
            Some(t) => Some(t),
            None => {
                return failed(
                    &rooms,
                    ip,
                    StatusCode::FORBIDDEN,
                    "no seat of this room has this token",
                );
            }
        },
        (None, Some(_)) => None,
        (None, None) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                "give token=... for a seat, or watch=1 for the table view",
            );
        }
    };
    // The token is checked before the upgrade (a stranger gets 403), and
    // the seat taken only once the connection is open, so a handshake that
    // never completes leaves no phantom in the room.
    let (reply, answer) = oneshot::channel();
    if room.send(Command::Knows { token, reply }).await.is_err() {
        return refuse(StatusCode::NOT_FOUND, "the room has closed");
    }
    if answer.await != Ok(true) {
        return failed(
            &rooms,
            ip,
            StatusCode::FORBIDDEN,
            "no seat of this room has this token, or the room is full",
        );
    }
    upgrade
        .max_message_size(16 * MAX_MESSAGE)
        .max_frame_size(16 * MAX_MESSAGE)
        .on_upgrade(move |ws| async move {
            let (out_tx, out_rx) = mpsc::channel(room::QUEUE);
            let (reply, answer) = oneshot::channel();
            let asked = room.send(Command::Connect {
                token,
                out: out_tx,
                reply,
            });
            if asked.await.is_err() {
                return;
            }
            if let Ok(Some((conn, _seat))) = answer.await {
                connection(ws, room, conn, out_rx).await;
            }
        })
}

/// One connection: what it sends goes to the room, read and timestamped
/// on arrival; what the room says goes out to it.
async fn connection(
    mut ws: WebSocket,
    room: mpsc::Sender<Command>,
    conn: u64,
    mut out: mpsc::Receiver<Arc<str>>,
) {
    let (mut tokens, mut at) = (BURST, Instant::now());
    let mut faults = 0u32;
    loop {
        tokio::select! {
            incoming = ws.recv() => {
                let Some(Ok(message)) = incoming else { break };
                let arrived = Instant::now();
                let fault = match message {
                    Message::Text(text) => {
                        tokens = (tokens + arrived.duration_since(at).as_secs_f64() * PER_SECOND).min(BURST);
                        at = arrived;
                        if tokens < 1.0 {
                            Some(format!("too many messages: at most {PER_SECOND} a second"))
                        } else {
                            tokens -= 1.0;
                            match decode(text.as_str()) {
                                Ok(message) => {
                                    if room.send(Command::Message { conn, at: arrived, message }).await.is_err() {
                                        break;
                                    }
                                    None
                                }
                                Err(e) => Some(e.to_string()),
                            }
                        }
                    }
                    Message::Binary(_) => Some("the room reads text messages only".to_string()),
                    Message::Close(_) => break,
                    Message::Ping(_) | Message::Pong(_) => None,
                };
                if let Some(error) = fault {
                    faults += 1;
                    let text = ServerMessage::error(error).text();
                    if ws.send(Message::Text(text.into())).await.is_err() || faults >= MAX_FAULTS {
                        break;
                    }
                }
            }
            said = out.recv() => {
                let Some(text) = said else { break };
                if ws.send(Message::Text(text.as_ref().into())).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = room.send(Command::Disconnect { conn }).await;
}

/// `GET /api/v1/rooms/{code}/qr.svg`: the room's join link as a QR code,
/// for the host's page.
pub(super) async fn qr(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
    headers: HeaderMap,
) -> Response {
    let rooms = &shared.rooms;
    let code = match find(rooms, peer.ip(), &code) {
        Ok((code, _)) => code,
        Err(refused) => return refused.into_response(),
    };
    let host = rooms
        .lan
        .get()
        .cloned()
        .or_else(|| {
            headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .map(str::to_string)
        })
        .unwrap_or_else(|| "localhost".into());
    let link = format!("http://{host}/room/{code}");
    let Ok(qr) = qrcode::QrCode::new(link.as_bytes()) else {
        return refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "no QR code for this link",
        );
    };
    let svg = qr
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(240, 240)
        .quiet_zone(true)
        .build();
    let mut response = (StatusCode::OK, svg).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("image/svg+xml"),
    );
    response
}
