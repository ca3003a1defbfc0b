//! One game room: a task that owns the room's seats, its connections and
//! its game, and takes one command at a time from its channel, so that no
//! lock is held and no two calls race inside it. The game is the library's
//! own (`game::Live` with people in several seats: the deal, the models,
//! the referee, the turn's resolution); the room adds the clock, the
//! people's pace between turns, seats that leave and come back, and what
//! every connection is told.
//!
//! One concern, kept in one file: the life of a room, from its lobby
//! through its games to its end.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;
use tokio::sync::{mpsc, oneshot};
use tokio::time::sleep_until;

use prime_solve::game::{
    CallBook, Duel, Endgame, Game, Live, Made, Model, Multi, Outcome, Round, Setup, Timing,
};
use prime_solve::practice::face;
use prime_solve::report::json::Integer;
use prime_solve::room::ClientMessage;
use prime_solve::{Rng, Rules, Solver, Style};

use super::Rooms;
use super::secret::Token;

/// How long a room with no one connected lives on.
const IDLE: Duration = Duration::from_secs(600);
/// The longest a room lives.
const MAX_LIFE: Duration = Duration::from_secs(6 * 3600);
/// The most combinations a game shows before it is called off.
const MAX_TURNS: u32 = 3000;
/// Messages a connection may have waiting; past it, the connection is
/// dropped (it reads too slowly to follow the game).
pub(crate) const QUEUE: usize = 256;
/// The most connections a room holds (each seat on a few devices, and
/// table views).
const MAX_CONNECTIONS: usize = 48;
/// The most table views among them: views cannot take the seats' places.
const MAX_VIEWS: usize = 8;

/// What the host chose.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    pub(crate) rules: Rules,
    pub(crate) seats: usize,
    /// The models in the last seats.
    pub(crate) bots: Vec<Model>,
    pub(crate) endgame: Endgame,
    /// After a turn, the next starts when every person present has pressed
    /// "next", or after this long (`None`: only when they all have).
    pub(crate) pause: Option<Duration>,
    /// A combination nobody calls validly by then is buried.
    pub(crate) limit: Duration,
    /// A seat away longer than this is played for.
    pub(crate) away: Duration,
    /// Who plays for a seat away: a model, or nobody (the seat passes).
    pub(crate) away_model: Option<Model>,
    /// How long after the first valid call a higher prime may still take
    /// the cards (the tie window stays the rules' 150 ms, or this if
    /// shorter).
    pub(crate) window_ms: u32,
    /// The most combinations a game shows; then the most cards wins.
    pub(crate) turns: u32,
}

/// A command for the room, from a request or a connection.
pub(crate) enum Command {
    Join {
        name: String,
        reply: oneshot::Sender<Result<(usize, Token), JoinError>>,
    },
    /// A connection with a seat's token, or a table view (`None`).
    Connect {
        token: Option<Token>,
        out: mpsc::Sender<Arc<str>>,
        reply: oneshot::Sender<Option<(u64, Option<usize>)>>,
    },
    /// Whether a connection with this token (or a table view) would be
    /// taken now.
    Knows {
        token: Option<Token>,
        reply: oneshot::Sender<bool>,
    },
    Disconnect {
        conn: u64,
    },
    Message {
        conn: u64,
        at: Instant,
        message: ClientMessage,
    },
}

/// Why a seat cannot be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JoinError {
    Full,
    Started,
}

/// A seat at the table.
struct Seat {
    name: String,
    /// `None` for a model's seat.
    token: Option<Token>,
    model: Option<Model>,
    /// Whether a person has taken it.
    taken: bool,
    /// Connections that hold it now.
    connected: usize,
    /// Since when nobody holds it.
    gone: Option<Instant>,
    /// Played for while away.
    away: bool,
    /// Connections this seat may still open now, and when that was
    /// counted: a seat cycling its connection cannot flood the room.
    connects: (f64, Instant),
}

/// Connections a seat may open a minute (a burst of that many).
const CONNECTS_PER_MINUTE: f64 = 20.0;

impl Seat {
    /// Counts one connection of this seat; `false` past its share.
    fn may_connect(&mut self, now: Instant) -> bool {
        let (tokens, at) = self.connects;
        let minutes = now.saturating_duration_since(at).as_secs_f64() / 60.0;
        let tokens = (tokens + minutes * CONNECTS_PER_MINUTE).min(CONNECTS_PER_MINUTE);
        if tokens < 1.0 {
            self.connects = (tokens, now);
            return false;
        }
        self.connects = (tokens - 1.0, now);
        true
    }
}

struct Connection {
    id: u64,
    seat: Option<usize>,
    out: mpsc::Sender<Arc<str>>,
}

/// Where the room is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Lobby,
    Turn,
    Between,
    Over,
}

/// The room: its seats, connections, settings, and what has been said
/// this game (for a connection that comes in later).
pub(crate) struct Room {
    code: String,
    settings: Settings,
    seats: Vec<Seat>,
    conns: Vec<Connection>,
    next_conn: u64,
    phase: Phase,
    /// The messages of the turn now on the table, and the last result: a
    /// connection that comes in is sent them after the state.
    this_turn: Vec<Arc<str>>,
    /// Seats that have pressed "next".
    ready: Vec<usize>,
    over: Option<serde_json::Value>,
    rooms: Arc<Rooms>,
    created: Instant,
    games: u32,
}

/// A seat as everyone sees it: never its token.
#[derive(Serialize)]
struct SeatView<'a> {
    seat: usize,
    name: &'a str,
    kind: &'static str,
    model: Option<&'a str>,
    taken: bool,
    connected: bool,
    away: bool,
    held: Option<usize>,
}

impl Room {
    pub(crate) fn new(
        code: String,
        settings: Settings,
        host: (String, Token),
        rooms: Arc<Rooms>,
    ) -> Room {
        let people = settings.seats - settings.bots.len();
        let mut seats: Vec<Seat> = (0..people)
            .map(|i| Seat {
                name: if i == 0 {
                    host.0.clone()
                } else {
                    String::new()
                },
                token: (i == 0).then_some(host.1),
                model: None,
                taken: i == 0,
                connected: 0,
                gone: Some(Instant::now()),
                away: false,
                connects: (CONNECTS_PER_MINUTE, Instant::now()),
            })
            .collect();
        for (i, m) in settings.bots.iter().enumerate() {
            seats.push(Seat {
                name: format!("{} ({})", bot_name(i), m.name),
                token: None,
                model: Some(m.clone()),
                taken: true,
                connected: 0,
                gone: None,
                away: false,
                connects: (CONNECTS_PER_MINUTE, Instant::now()),
            });
        }
        Room {
            code,
            settings,
            seats,
            conns: Vec::new(),
            next_conn: 0,
            phase: Phase::Lobby,
            this_turn: Vec::new(),
            ready: Vec::new(),
            over: None,
            rooms,
            created: Instant::now(),
            games: 0,
        }
    }

    fn people(&self) -> Vec<usize> {
        (0..self.seats.len())
            .filter(|&s| self.seats[s].model.is_none())
            .collect()
    }

    fn seat_views(&self, held: Option<&[usize]>) -> Vec<SeatView<'_>> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatView {
                seat: i,
                name: &s.name,
                kind: if s.model.is_some() { "bot" } else { "person" },
                model: s.model.as_ref().map(|m| m.name.as_ref()),
                taken: s.taken,
                connected: s.connected > 0,
                away: s.away,
                held: held.map(|h| h[i]),
            })
            .collect()
    }

    /// Sends `message` to every connection; one too slow to take it is
    /// dropped.
    fn broadcast(&mut self, message: &serde_json::Value) {
        let text: Arc<str> = Arc::from(message.to_string());
        self.send_all(&text);
    }

    fn send_all(&mut self, text: &Arc<str>) {
        let mut dropped = Vec::new();
        for c in &self.conns {
            if c.out.try_send(Arc::clone(text)).is_err() {
                dropped.push(c.id);
            }
        }
        for id in dropped {
            self.disconnect(id);
        }
    }

    fn tell(&mut self, conn: u64, message: &serde_json::Value) {
        let text: Arc<str> = Arc::from(message.to_string());
        let full = self
            .conns
            .iter()
            .find(|c| c.id == conn)
            .is_some_and(|c| c.out.try_send(text).is_err());
        if full {
            self.disconnect(conn);
        }
    }

    fn error(&mut self, conn: u64, error: &str) {
        self.tell(conn, &json!({"type": "error", "error": error}));
    }

    /// Remembers a message of this turn and sends it to everyone.
    fn say(&mut self, message: &serde_json::Value) {
        let text: Arc<str> = Arc::from(message.to_string());
        self.this_turn.push(Arc::clone(&text));
        self.send_all(&text);
    }

    fn seats_message(&self, held: Option<&[usize]>) -> serde_json::Value {
        json!({"type": "seats", "seats": self.seat_views(held)})
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Lobby => "lobby",
            Phase::Turn => "turn",
            Phase::Between => "between",
            Phase::Over => "over",
        }
    }

    /// The whole room, for a connection that has just come in.
    fn state(&self, seat: Option<usize>, held: Option<&[usize]>) -> serde_json::Value {
        let s = &self.settings;
        json!({
            "type": "state",
            "code": self.code,
            "you": seat,
            "host": seat == Some(0),
            "phase": self.phase_name(),
            "seats": self.seat_views(held),
            "rule_set": s.rules.name(),
            "rules": prime_solve::report::json::rules(&s.rules),
            "settings": {
                "seats": s.seats,
                "endgame": s.endgame.name(),
                "pause": s.pause.map(|d| d.as_secs()),
                "limit": s.limit.as_secs(),
                "away": s.away.as_secs(),
                "away_as": s.away_model.as_ref().map_or("pass", |m| m.name.as_ref()),
                "window_ms": s.window_ms,
                "turns": s.turns,
            },
            "ready": self.ready,
            "link": self.rooms.lan.get().map(|host| format!("http://{host}/room/{}", self.code)),
            "game_over": self.over,
            "games": self.games,
        })
    }

    fn join(&mut self, name: String) -> Result<(usize, Token), JoinError> {
        if self.phase != Phase::Lobby {
            return Err(JoinError::Started);
        }
        let Some(seat) = (0..self.seats.len()).find(|&s| !self.seats[s].taken) else {
            return Err(JoinError::Full);
        };
        let token = Token::fresh().ok_or(JoinError::Full)?;
        let s = &mut self.seats[seat];
        s.name = name;
        s.token = Some(token);
        s.taken = true;
        let seats = self.seats_message(None);
        self.broadcast(&seats);
        Ok((seat, token))
    }

    /// A connection comes in: `None` for a token no seat has, or a room
    /// already holding its most connections.
    fn connect(
        &mut self,
        token: Option<Token>,
        out: mpsc::Sender<Arc<str>>,
        held: Option<&[usize]>,
    ) -> Option<(u64, Option<usize>)> {
        let views = self.conns.iter().filter(|c| c.seat.is_none()).count();
        if self.conns.len() >= MAX_CONNECTIONS || (token.is_none() && views >= MAX_VIEWS) {
            return None;
        }
        let seat = match token {
            None => None,
            Some(t) => Some(
                self.seats
                    .iter()
                    .position(|s| s.token.as_ref().is_some_and(|mine| mine.same(&t)))?,
            ),
        };
        let id = self.next_conn;
        self.next_conn += 1;
        if let Some(s) = seat {
            self.seats[s].connected += 1;
            self.seats[s].gone = None;
        }
        let mut first = vec![Arc::from(self.state(seat, held).to_string())];
        first.extend(self.this_turn.iter().cloned());
        for text in first {
            // A fresh queue holds the state and a turn's messages.
            let _ = out.try_send(text);
        }
        self.conns.push(Connection { id, seat, out });
        if seat.is_some() {
            let seats = self.seats_message(held);
            self.broadcast(&seats);
        }
        Some((id, seat))
    }

    fn disconnect(&mut self, conn: u64) {
        let Some(i) = self.conns.iter().position(|c| c.id == conn) else {
            return;
        };
        let c = self.conns.swap_remove(i);
        if let Some(s) = c.seat {
            let seat = &mut self.seats[s];
            seat.connected = seat.connected.saturating_sub(1);
            if seat.connected == 0 {
                seat.gone = Some(Instant::now());
            }
        }
    }

    fn seat_of(&self, conn: u64) -> Option<Option<usize>> {
        self.conns.iter().find(|c| c.id == conn).map(|c| c.seat)
    }

    /// The people present (a connection holds their seat).
    fn present(&self) -> Vec<usize> {
        self.people()
            .into_iter()
            .filter(|&s| self.seats[s].connected > 0)
            .collect()
    }

    /// When the room ends for want of anyone: idle long enough, or old.
    fn ends_at(&self) -> Instant {
        let life = self.created + MAX_LIFE;
        if !self.conns.is_empty() {
            return life;
        }
        let last = self
            .seats
            .iter()
            .filter_map(|s| s.gone)
            .max()
            .unwrap_or(self.created);
        (last + IDLE).min(life)
    }

    /// Handles a command that does not depend on the game; returns the
    /// message, if any, for the game to handle.
    fn handle(
        &mut self,
        command: Command,
        held: Option<&[usize]>,
    ) -> Option<(u64, Instant, ClientMessage)> {
        match command {
            Command::Join { name, reply } => {
                let _ = reply.send(self.join(name));
            }
            Command::Connect { token, out, reply } => {
                let _ = reply.send(self.connect(token, out, held));
            }
            Command::Knows { token, reply } => {
                let now = Instant::now();
                let views = self.conns.iter().filter(|c| c.seat.is_none()).count();
                let seat_known = match token {
                    None => views < MAX_VIEWS,
                    Some(t) => self
                        .seats
                        .iter_mut()
                        .find(|s| s.token.as_ref().is_some_and(|mine| mine.same(&t)))
                        .is_some_and(|s| s.may_connect(now)),
                };
                let _ = reply.send(seat_known && self.conns.len() < MAX_CONNECTIONS);
            }
            Command::Disconnect { conn } => {
                self.disconnect(conn);
                let seats = self.seats_message(held);
                self.broadcast(&seats);
            }
            Command::Message { conn, at, message } => {
                if message == ClientMessage::Ping {
                    return None;
                }
                return Some((conn, at, message));
            }
        }
        None
    }
}

fn bot_name(i: usize) -> &'static str {
    ["Ada", "Bea", "Cy", "Dot", "Eli", "Flo"][i % 6]
}

/// Runs the room until it ends, then takes it off the list.
pub(crate) async fn run(mut room: Room, mut rx: mpsc::Receiver<Command>) {
    lobby_and_games(&mut room, &mut rx).await;
    room.rooms.remove(&room.code);
    for c in std::mem::take(&mut room.conns) {
        let _ = c.out.try_send(Arc::from(
            json!({"type": "error", "error": "the room has closed"}).to_string(),
        ));
    }
}

/// The lobby, then each game the host starts, until the room ends.
async fn lobby_and_games(room: &mut Room, rx: &mut mpsc::Receiver<Command>) {
    loop {
        // Waiting for the host's start (a first game or a rematch).
        let start = loop {
            let ends = room.ends_at();
            tokio::select! {
                command = rx.recv() => {
                    let Some(command) = command else { return };
                    let Some((conn, _, message)) = room.handle(command, None) else { continue };
                    let seat = room.seat_of(conn).flatten();
                    match message {
                        ClientMessage::Start if seat == Some(0) => {
                            let missing = (0..room.seats.len()).filter(|&s| !room.seats[s].taken).count();
                            if missing > 0 {
                                room.error(conn, &format!("waiting for {missing} more to take a seat"));
                            } else {
                                break conn;
                            }
                        }
                        ClientMessage::Start => room.error(conn, "only the host starts the game"),
                        _ => {
                            let why = if room.phase == Phase::Over { "the game is over: the host may start a rematch" } else { "the game has not started" };
                            room.error(conn, why);
                        }
                    }
                }
                () = sleep_until(ends.into()) => return,
            }
        };
        let settings = room.settings.clone();
        let preparing = json!({"type": "preparing"});
        room.broadcast(&preparing);
        let book = match room.rooms.book(settings.rules, settings.seats).await {
            Ok(book) => book,
            Err(e) => {
                room.error(start, &e);
                continue;
            }
        };
        if !play_game(room, rx, &book).await {
            return;
        }
    }
}

/// The models of the seats: the bots', and for the people's, the model
/// that plays for them while they are away (or any, never asked, when
/// they pass instead).
fn seat_models(room: &Room) -> Vec<Model> {
    let stand_in = room.settings.away_model.clone().unwrap_or(Model::CLUB);
    room.seats
        .iter()
        .map(|s| s.model.clone().unwrap_or_else(|| stand_in.clone()))
        .collect()
}

/// Plays one game; `false` when the room ends during it.
async fn play_game(room: &mut Room, rx: &mut mpsc::Receiver<Command>, book: &CallBook) -> bool {
    let settings = room.settings.clone();
    // Each game's deal from the operating system's random source (the
    // clock, should it fail).
    let seed = getrandom::u64().unwrap_or_else(|_| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(u64::from(room.games), |d| d.as_nanos() as u64)
    });
    let mut rng = Rng::new(seed);
    let game: Box<dyn Game> = if settings.seats == 2 {
        Box::new(Duel::deal(&mut rng))
    } else {
        Box::new(Multi::deal(settings.seats, &mut rng).with_endgame(settings.endgame))
    };
    let timing = Timing {
        tie_window_ms: Timing::default().tie_window_ms.min(settings.window_ms),
        override_window_ms: settings.window_ms,
    };
    let setup = Setup::new(book, seat_models(room), settings.rules.faces, timing);
    let limit_ms = u32::try_from(settings.limit.as_millis()).unwrap_or(u32::MAX);
    let mut live =
        Live::new(setup, game, rng, settings.rules, limit_ms).with_people(&room.people());
    let solver = Solver::new(settings.rules).ok();
    room.games += 1;
    room.over = None;
    for s in &mut room.seats {
        s.away = false;
    }
    let held = live.held();
    let state = json!({"type": "start", "game": room.games, "seats": room.seat_views(Some(&held))});
    room.broadcast(&state);
    let reason = loop {
        if live.game.record().turns >= settings.turns.min(MAX_TURNS) {
            break "turns";
        }
        // People away long enough are played for, or pass; people back
        // play again.
        let now = Instant::now();
        for s in room.people() {
            let away = room.seats[s]
                .gone
                .is_some_and(|g| now.duration_since(g) >= settings.away);
            if away != room.seats[s].away {
                room.seats[s].away = away;
                live.set_person(s, !(away && settings.away_model.is_some()));
            }
        }
        if live.people.is_empty() || live.people_out() && live.game.stock().is_none() {
            // Nobody left to wait for: the models finish the game.
            let left = settings
                .turns
                .min(MAX_TURNS)
                .saturating_sub(live.game.record().turns);
            live.play_on(left);
            break "played out";
        }
        let Some(mut round) = live.deal() else {
            break "won";
        };
        room.phase = Phase::Turn;
        room.this_turn.clear();
        room.ready.clear();
        let dealt = turn_message(&live, &round);
        room.say(&dealt);
        let start = Instant::now();
        // Seats away that pass rather than be played for pass at once.
        for s in room.people() {
            if room.seats[s].away && live.pass(&mut round, s, 0).is_ok() {
                let passed = json!({"type": "passed", "seat": s, "ms": 0});
                room.say(&passed);
            }
        }
        // The models' calls are told as their times come (`round.bots`
        // is by time); the people's as they arrive.
        let mut told = 0;
        loop {
            let now_ms = ms_since(start);
            let closes = live.closes_at(&round);
            while let Some(&(seat, call)) = round.bots.get(told) {
                if call.time_ms > now_ms.min(closes) {
                    break;
                }
                let made = Made {
                    seat,
                    ms: call.time_ms,
                    prime: Some(call.prime),
                    claim: None,
                    valid: call.valid,
                    fault: None,
                };
                let v = verdict_message(room, &round, &made, solver.as_ref());
                room.say(&v);
                told += 1;
            }
            if now_ms >= closes {
                break;
            }
            let next_bot = round
                .bots
                .iter()
                .map(|(_, c)| c.time_ms)
                .filter(|&t| t > now_ms)
                .min()
                .unwrap_or(u32::MAX)
                .min(closes);
            let wake = start + Duration::from_millis(u64::from(next_bot));
            tokio::select! {
                command = rx.recv() => {
                    let Some(command) = command else { return false };
                    let held = live.held();
                    let Some((conn, at, message)) = room.handle(command, Some(&held)) else { continue };
                    let Some(seat) = room.seat_of(conn).flatten() else {
                        room.error(conn, "a table view cannot call");
                        continue;
                    };
                    let ms = u32::try_from(at.saturating_duration_since(start).as_millis()).unwrap_or(u32::MAX);
                    match message {
                        ClientMessage::Call { claim } => {
                            if ms > live.closes_at(&round) {
                                room.error(conn, "too late: the cards have been decided");
                                continue;
                            }
                            match live.call(&mut round, seat, ms, &claim) {
                                Ok(()) => {
                                    let made = round.calls_until(u32::MAX).into_iter().find(|c| c.seat == seat && c.claim.is_some());
                                    if let Some(c) = made {
                                        let v = verdict_message(room, &round, &c, solver.as_ref());
                                        room.say(&v);
                                    }
                                }
                                Err(e) => room.error(conn, &e.to_string()),
                            }
                        }
                        ClientMessage::Pass => match live.pass(&mut round, seat, ms) {
                            Ok(()) => {
                                let passed = json!({"type": "passed", "seat": seat, "ms": ms});
                                room.say(&passed);
                            }
                            Err(e) => room.error(conn, &e.to_string()),
                        },
                        ClientMessage::Next => room.error(conn, "the cards are still being called"),
                        ClientMessage::Start => room.error(conn, "the game is on"),
                        ClientMessage::Ping => {}
                    }
                }
                () = sleep_until(wake.into()) => {}
            }
        }
        let done = live.finish(&round);
        let held = live.held();
        let stock = live.game.stock().map(<[u8]>::len);
        let result = match &done.outcome {
            Outcome::Win(seat) => {
                let prime = done
                    .calls
                    .iter()
                    .filter(|c| c.seat == *seat && c.valid)
                    .filter_map(|c| c.prime)
                    .max();
                json!({"type": "won", "turn": round.turn, "seat": seat, "prime": prime.map(Integer), "held": held, "stock": stock})
            }
            Outcome::Tie(seats) => {
                json!({"type": "buried", "turn": round.turn, "why": "tie", "seats": seats, "held": held, "stock": stock})
            }
            Outcome::NoCall => {
                json!({"type": "buried", "turn": round.turn, "why": if done.impossible { "no prime" } else { "no call" }, "seats": round.shown.seats, "held": held, "stock": stock})
            }
        };
        room.say(&result);
        // The people set the pace: the next cards come when everyone
        // present has pressed next, or after the host's pause.
        room.phase = Phase::Between;
        let pause_ends = settings.pause.map(|p| Instant::now() + p);
        loop {
            // Those present who still hold cards: a player out of the game
            // holds up no one.
            let present = room.present();
            let held = live.held();
            let gate = present.iter().filter(|&&s| held[s] > 0);
            if !present.is_empty() && gate.clone().all(|s| room.ready.contains(s)) {
                break;
            }
            // With nobody present the game waits for someone to come back
            // (or the room to end); with people present, for their next or
            // the host's pause.
            let wake = if present.is_empty() {
                room.ends_at()
            } else {
                pause_ends.map_or_else(|| room.ends_at(), |p| p.min(room.ends_at()))
            };
            tokio::select! {
                command = rx.recv() => {
                    let Some(command) = command else { return false };
                    let held = live.held();
                    let Some((conn, _, message)) = room.handle(command, Some(&held)) else { continue };
                    let Some(seat) = room.seat_of(conn).flatten() else { continue };
                    match message {
                        ClientMessage::Next => {
                            if !room.ready.contains(&seat) {
                                room.ready.push(seat);
                                let ready = json!({"type": "ready", "ready": room.ready});
                                room.broadcast(&ready);
                            }
                        }
                        ClientMessage::Call { .. } | ClientMessage::Pass => {
                            room.error(conn, "between turns: press next for the next cards");
                        }
                        ClientMessage::Start => room.error(conn, "the game is on"),
                        ClientMessage::Ping => {}
                    }
                }
                () = sleep_until(wake.into()) => {
                    let now = Instant::now();
                    if now >= room.ends_at() { return false; }
                    if !room.present().is_empty() && pause_ends.is_some_and(|p| now >= p) { break; }
                }
            }
        }
    };
    room.phase = Phase::Over;
    room.this_turn.clear();
    let over = game_over(room, &live, reason);
    room.over = Some(over.clone());
    room.broadcast(&over);
    room.rooms.record(&over, &room.code, &settings).await;
    true
}

fn ms_since(start: Instant) -> u32 {
    u32::try_from(start.elapsed().as_millis()).unwrap_or(u32::MAX)
}

/// The cards turned: as shown, as typed, what they count, who turned them.
fn turn_message(live: &Live, round: &Round) -> serde_json::Value {
    let cards: Vec<prime_solve::Card> = round
        .shown
        .cards
        .iter()
        .map(|&id| live.setup.card(id))
        .collect();
    json!({
        "type": "turn",
        "turn": round.turn,
        "cards": cards.iter().map(|&c| face(c, Style::UNICODE)).collect::<Vec<_>>(),
        "tokens": cards.iter().map(|&c| face(c, Style::ASCII)).collect::<Vec<_>>(),
        "values": prime_solve::practice::counted(&cards, live.rules.faces).unwrap_or_default(),
        "owners": round.shown.owners,
        "seats": round.shown.seats,
        "hand": round.hand.map(|h| h.values()),
        "limit_ms": live.limit_ms,
        "held": live.held(),
        "stock": live.game.stock().map(<[u8]>::len),
    })
}

/// A call and the referee's ruling: a person's words and fault, or a
/// model's prime with its simplest witness.
fn verdict_message(
    room: &Room,
    round: &Round,
    c: &Made,
    solver: Option<&Solver>,
) -> serde_json::Value {
    let witness = match (&c.claim, c.valid, c.prime, round.hand) {
        (Some(claim), true, _, _) => Some(claim.clone()),
        (None, true, Some(p), Some(hand)) => solver
            .and_then(|s| s.solve_primes(hand).ok())
            .and_then(|s| s.witness(p).map(|e| e.shown(s.rules().max_value)))
            .map(|e| e.render(Style::UNICODE)),
        _ => None,
    };
    let fault = match (&c.fault, c.valid) {
        (Some(f), _) => Some(f.to_string()),
        (None, false) => Some("a miscalculation".to_string()),
        (None, true) => None,
    };
    json!({
        "type": "verdict",
        "turn": round.turn,
        "seat": c.seat,
        "name": room.seats[c.seat].name,
        "ms": c.ms,
        "claim": c.claim,
        "valid": c.valid,
        "value": c.prime.map(Integer),
        "fault": fault,
        "witness": witness,
    })
}

/// Who won, and each seat's record.
fn game_over(room: &Room, live: &Live, reason: &str) -> serde_json::Value {
    let held = live.held();
    let record = live.game.record();
    let winner = record.winner.or_else(|| {
        // Called off: the most cards wins.
        let most = held.iter().max().copied()?;
        (held.iter().filter(|&&h| h == most).count() == 1)
            .then(|| held.iter().position(|&h| h == most))?
    });
    let records: Vec<serde_json::Value> = (0..room.seats.len())
        .map(|s| {
            let t = live.tally(s);
            let mut times = t.times.clone();
            times.sort_unstable();
            json!({
                "seat": s,
                "name": room.seats[s].name,
                "held": held[s],
                "won": t.won,
                "valid": t.valid,
                "wrong": t.wrong,
                "passes": t.passes,
                "median_ms": prime_solve::median(&times),
                "best": t.best.map(Integer),
            })
        })
        .collect();
    json!({
        "type": "game_over",
        "game": room.games,
        "reason": reason,
        "winner": winner,
        "turns": record.turns,
        "records": records,
    })
}
