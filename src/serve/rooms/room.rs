//! One game room: a task that owns the room's seats, its connections and
//! its game, and takes one command at a time from its channel, so that no
//! lock is held and no two calls race inside it. The game is the library's
//! driver (`game::Live` with people in several seats: the deal, the
//! models, the referee, each turn's resolution, the end and its winner);
//! the room adds the clock, the people's pace between turns, seats that
//! leave and come back, and what every connection is told, in the
//! protocol's messages (`prime_solve::room`).
//!
//! The file holds the room's life, from its lobby through its games to
//! its end.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};
use tokio::time::sleep_until;

use prime_solve::game::{
    self, Burial, CallBook, Duel, End, Endgame, Ending, Ends, Event, Game, GameOver, Live, Model,
    Multi, Setup, Stage, Timing,
};
use prime_solve::practice::face;
use prime_solve::room::{
    ClientMessage, GameOverView, RecordView, RoomState, SeatView, ServerMessage, SettingsView,
    TurnView, VerdictView,
};
use prime_solve::{Rng, Rules, Style};

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
/// How long a table view let in has to connect before its place is
/// given to another.
const VIEW_CONNECTING: Duration = Duration::from_secs(10);

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
    /// A short game: the first to hold this many cards wins.
    pub(crate) target: Option<usize>,
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
    /// Handed to a bot by the host, until its player comes back.
    handed: bool,
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
    over: Option<GameOverView>,
    rooms: Arc<Rooms>,
    created: Instant,
    games: u32,
    /// The host's seat.
    host: usize,
    /// Combinations each seat has won this game.
    won: Option<Vec<u32>>,
    /// The host asked for the next cards now.
    deal_now: bool,
    /// When the cards on the table were shown.
    turn_start: Option<Instant>,
    /// When each table view let in but not yet connected was let in.
    views_coming: Vec<Instant>,
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
                handed: false,
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
                handed: false,
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
            host: 0,
            won: None,
            deal_now: false,
            turn_start: None,
            views_coming: Vec::new(),
        }
    }

    fn people(&self) -> Vec<usize> {
        (0..self.seats.len())
            .filter(|&s| self.seats[s].model.is_none())
            .collect()
    }

    fn seat_views(&self, held: Option<&[usize]>) -> Vec<SeatView> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatView {
                seat: i,
                name: s.name.clone(),
                kind: if s.model.is_some() { "bot" } else { "person" },
                model: s.model.as_ref().map(|m| m.name.to_string()),
                taken: s.taken,
                connected: s.connected > 0,
                away: s.away,
                host: i == self.host,
                held: held.map(|h| h[i]),
                won: self.won.as_ref().map(|w| w[i]),
            })
            .collect()
    }

    /// Sends `message` to every connection; one too slow to take it is
    /// dropped.
    fn broadcast(&mut self, message: &ServerMessage) {
        let text: Arc<str> = Arc::from(message.text());
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

    fn tell(&mut self, conn: u64, message: &ServerMessage) {
        let text: Arc<str> = Arc::from(message.text());
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
        self.tell(conn, &ServerMessage::error(error));
    }

    /// Remembers a message of this turn and sends it to everyone.
    fn say(&mut self, message: &ServerMessage) {
        let text: Arc<str> = Arc::from(message.text());
        self.this_turn.push(Arc::clone(&text));
        self.send_all(&text);
    }

    fn seats_message(&self, held: Option<&[usize]>) -> ServerMessage {
        ServerMessage::Seats {
            seats: self.seat_views(held),
        }
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
    fn state(&self, seat: Option<usize>, held: Option<&[usize]>) -> ServerMessage {
        let s = &self.settings;
        ServerMessage::State(Box::new(RoomState {
            code: self.code.clone(),
            you: seat,
            host: seat == Some(self.host),
            phase: self.phase_name(),
            seats: self.seat_views(held),
            rule_set: s.rules.name(),
            rules: serde_json::to_value(prime_solve::report::json::rules(&s.rules))
                .unwrap_or_default(),
            settings: SettingsView {
                seats: s.seats,
                endgame: s.endgame.name(),
                pause: s.pause.map(|d| d.as_secs()),
                limit: s.limit.as_secs(),
                away: s.away.as_secs(),
                away_as: s
                    .away_model
                    .as_ref()
                    .map_or_else(|| "pass".to_string(), |m| m.name.to_string()),
                window_ms: s.window_ms,
                turns: s.turns,
                target: s.target,
            },
            ready: self.ready.clone(),
            link: self
                .rooms
                .lan
                .get()
                .map(|host| format!("http://{host}/room/{}", self.code)),
            game_over: self.over.clone(),
            games: self.games,
        }))
    }

    /// A seat for `name`: in the lobby, or after a game (for the rematch)
    /// where a seat is free.
    fn join(&mut self, name: String) -> Result<(usize, Token), JoinError> {
        if !matches!(self.phase, Phase::Lobby | Phase::Over) {
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
        s.gone = Some(Instant::now());
        s.connects = (CONNECTS_PER_MINUTE, Instant::now());
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
        if token.is_none() && !self.views_coming.is_empty() {
            self.views_coming.remove(0);
        }
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
            // Back: the seat is the player's again from the next cards.
            self.seats[s].handed = false;
        }
        let mut first = vec![Arc::from(self.state(seat, held).text())];
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
                // Views let in and still connecting count as views: one
                // too many is refused before its upgrade, not after.
                self.views_coming
                    .retain(|&t| now.duration_since(t) < VIEW_CONNECTING);
                let views = self.conns.iter().filter(|c| c.seat.is_none()).count()
                    + self.views_coming.len();
                let seat_known = match token {
                    None if views < MAX_VIEWS => {
                        self.views_coming.push(now);
                        true
                    }
                    None => false,
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
            ServerMessage::error("the room has closed").text(),
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
                        ClientMessage::Start if seat == Some(room.host) => {
                            let missing = (0..room.seats.len()).filter(|&s| !room.seats[s].taken).count();
                            if missing > 0 {
                                room.error(conn, &format!("waiting for {missing} more to take a seat"));
                            } else {
                                break conn;
                            }
                        }
                        ClientMessage::Start => room.error(conn, "only the host starts the game"),
                        ClientMessage::Remove { .. } | ClientMessage::MakeHost { .. } if seat == Some(room.host) => {
                            room.host_control(None, conn, &message);
                        }
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
        room.broadcast(&ServerMessage::Preparing);
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

/// A new game on the library's driver, dealt from the operating system's
/// random source (the clock, should it fail).
fn new_game<'a>(room: &Room, book: &'a CallBook) -> Live<'a> {
    let settings = &room.settings;
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
    Live::new(setup, game, rng, settings.rules, limit_ms)
        .with_people(&room.people())
        .with_ends(Ends {
            max_turns: settings.turns.min(MAX_TURNS),
            target: settings.target,
            ..Ends::default()
        })
}

/// Plays one game; `false` when the room ends during it.
async fn play_game(room: &mut Room, rx: &mut mpsc::Receiver<Command>, book: &CallBook) -> bool {
    let mut live = new_game(room, book);
    room.games += 1;
    room.over = None;
    room.won = Some(vec![0; room.seats.len()]);
    for s in &mut room.seats {
        s.away = false;
        s.handed = false;
    }
    let start = ServerMessage::Start {
        game: room.games,
        seats: room.seat_views(Some(&live.held())),
    };
    room.broadcast(&start);
    loop {
        hand_over_the_away(room, &mut live);
        let dealt = live.deal();
        room.this_turn.clear();
        room.ready.clear();
        if live.stage() == Stage::Calling {
            room.phase = Phase::Turn;
        }
        room.tell_events(&live, &dealt, None);
        if live.stage() == Stage::Calling && !calling(room, rx, &mut live).await {
            return false;
        }
        if live.stage() == Stage::Over {
            break;
        }
        room.phase = Phase::Between;
        if !between(room, rx, &mut live).await {
            return false;
        }
    }
    room.phase = Phase::Over;
    room.this_turn.clear();
    if let Some(over) = room.over.clone() {
        room.rooms.record(&over, &room.code, &room.settings).await;
    }
    true
}

/// People away long enough are played for, or pass; people back play
/// again, from the next cards.
fn hand_over_the_away(room: &mut Room, live: &mut Live) {
    let now = Instant::now();
    let away_after = room.settings.away;
    let played_for = room.settings.away_model.is_some();
    for s in room.people() {
        let seat = &mut room.seats[s];
        let gone = seat
            .gone
            .is_some_and(|g| now.duration_since(g) >= away_after);
        // Handed to a bot, or its player removed: a bot plays it whatever
        // the room does for a seat away.
        let given = seat.handed || !seat.taken;
        seat.away = gone || given;
        let person = !(given || gone && played_for);
        if person != live.people().contains(&s) {
            live.set_person(s, person);
        }
    }
    // A host gone away leaves the role to the next person present.
    if room.seats[room.host].away
        && let Some(next) = room.next_present(room.host)
    {
        room.host = next;
    }
    let seats = room.seats_message(Some(&live.held()));
    room.broadcast(&seats);
}

impl Room {
    /// `seat` passes on the cards on the table now, if it may still call:
    /// a seat handed to a bot or left by its player holds up no turn.
    fn pass_now(&mut self, live: &mut Live, seat: usize) {
        let Some(start) = self.turn_start.filter(|_| live.stage() == Stage::Calling) else {
            return;
        };
        if let Ok(events) = live.pass(seat, live.turn(), ms_since(start)) {
            self.tell_events(live, &events, None);
        }
    }

    /// The next person present after `seat`, round the table.
    fn next_present(&self, seat: usize) -> Option<usize> {
        let n = self.seats.len();
        (1..n).map(|i| (seat + i) % n).find(|&s| {
            self.seats[s].model.is_none() && self.seats[s].connected > 0 && !self.seats[s].away
        })
    }

    /// A host's control: the next cards now, a seat handed to a bot, a
    /// player removed, the host role passed on, the game ended. `live` is
    /// the game, if one is on.
    fn host_control(&mut self, live: Option<&mut Live>, conn: u64, message: &ClientMessage) {
        let person = |room: &Room, seat: usize| {
            room.seats
                .get(seat)
                .is_some_and(|s| s.model.is_none() && s.taken)
        };
        match *message {
            ClientMessage::DealNow
                if live.as_ref().is_some_and(|l| l.stage() == Stage::Calling) =>
            {
                self.error(conn, "the cards are still being called");
            }
            ClientMessage::DealNow => self.deal_now = true,
            ClientMessage::HandOver { seat } if seat != self.host && person(self, seat) => {
                self.seats[seat].handed = true;
                if let Some(live) = live {
                    self.pass_now(live, seat);
                    hand_over_the_away(self, live);
                }
            }
            ClientMessage::Remove { seat } if seat != self.host && person(self, seat) => {
                let s = &mut self.seats[seat];
                s.token = None;
                s.taken = false;
                s.handed = false;
                let gone: Vec<u64> = self
                    .conns
                    .iter()
                    .filter(|c| c.seat == Some(seat))
                    .map(|c| c.id)
                    .collect();
                for id in gone {
                    self.error(id, "the host has removed you from this seat");
                    self.disconnect(id);
                }
                match live {
                    Some(live) => {
                        self.pass_now(live, seat);
                        hand_over_the_away(self, live);
                    }
                    None => {
                        self.seats[seat].name.clear();
                        let seats = self.seats_message(None);
                        self.broadcast(&seats);
                    }
                }
            }
            ClientMessage::MakeHost { seat }
                if person(self, seat) && self.seats[seat].connected > 0 =>
            {
                self.host = seat;
                let seats = self.seats_message(live.map(|l| l.held()).as_deref());
                self.broadcast(&seats);
            }
            ClientMessage::End => match live {
                Some(live) => {
                    live.call_off();
                    let over = live.over().cloned();
                    if let Some(over) = over {
                        self.tell_events(live, &[Event::Over(over)], None);
                    }
                }
                None => self.error(conn, "no game is on"),
            },
            _ => self.error(
                conn,
                "not a seat that can be given to a bot, removed or made host",
            ),
        }
    }
}

/// The cards on the table, until the calls stop counting: the models'
/// calls told as their times come, the people's as they arrive; `false`
/// when the room ends meanwhile.
async fn calling(room: &mut Room, rx: &mut mpsc::Receiver<Command>, live: &mut Live<'_>) -> bool {
    let start = Instant::now();
    let turn = live.turn();
    // Seats away that pass rather than be played for pass at once.
    for s in room.people() {
        if room.seats[s].away
            && let Ok(events) = live.pass(s, turn, 0)
        {
            room.tell_events(live, &events, None);
        }
    }
    room.turn_start = Some(start);
    while live.stage() == Stage::Calling {
        // What has come in is taken before the clock decides the cards: a
        // call stamped before the close counts.
        while let Ok(command) = rx.try_recv() {
            let held = live.held();
            if let Some((conn, at, message)) = room.handle(command, Some(&held)) {
                let ms = u32::try_from(at.saturating_duration_since(start).as_millis())
                    .unwrap_or(u32::MAX);
                room.take(live, conn, ms, message);
            }
        }
        let events = live.tick(ms_since(start));
        room.tell_events(live, &events, None);
        let Some(wake) = live.wakes_at() else { break };
        let wake = start + Duration::from_millis(u64::from(wake));
        tokio::select! {
            biased;
            command = rx.recv() => {
                let Some(command) = command else { return false };
                let held = live.held();
                let Some((conn, at, message)) = room.handle(command, Some(&held)) else { continue };
                let ms = u32::try_from(at.saturating_duration_since(start).as_millis()).unwrap_or(u32::MAX);
                room.take(live, conn, ms, message);
            }
            () = sleep_until(wake.into()) => {}
        }
    }
    true
}

/// Between combinations: the next cards come when everyone present who
/// still holds cards has pressed next, or after the host's pause; `false`
/// when the room ends meanwhile.
async fn between(room: &mut Room, rx: &mut mpsc::Receiver<Command>, live: &mut Live<'_>) -> bool {
    let pause_ends = room.settings.pause.map(|p| Instant::now() + p);
    room.deal_now = false;
    loop {
        if room.deal_now || live.stage() == Stage::Over {
            return true;
        }
        // Those present who still hold cards: a player out of the game
        // holds up no one.
        let present = room.present();
        let held = live.held();
        // Seats a bot plays (handed over, or away) hold up no one either.
        let gate = present
            .iter()
            .filter(|&&s| held[s] > 0 && !room.seats[s].away);
        if !present.is_empty() && gate.clone().all(|s| live.ready_seats().contains(s)) {
            return true;
        }
        // With nobody present the game waits for someone to come back (or
        // the room to end); with people present, for their next or the
        // host's pause.
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
                room.take(live, conn, 0, message);
            }
            () = sleep_until(wake.into()) => {
                let now = Instant::now();
                if now >= room.ends_at() { return false; }
                if !room.present().is_empty() && pause_ends.is_some_and(|p| now >= p) { return true; }
            }
        }
    }
}

impl Room {
    /// A player's message during a game, at `ms` after the cards were
    /// shown: the driver takes it or says why not.
    fn take(&mut self, live: &mut Live, conn: u64, ms: u32, message: ClientMessage) {
        let Some(seat) = self.seat_of(conn).flatten() else {
            self.error(conn, "a table view cannot call");
            return;
        };
        if matches!(
            message,
            ClientMessage::Call { .. } | ClientMessage::Pass { .. } | ClientMessage::Next
        ) {
            // Playing again: the seat is its player's from the next cards.
            self.seats[seat].handed = false;
        }
        let taken = match message {
            ClientMessage::Call { turn, claim } => live.call(seat, turn, ms, &claim),
            ClientMessage::Pass { turn } => live.pass(seat, turn, ms),
            ClientMessage::Next => {
                match live.ready(seat) {
                    Some(ready) => {
                        self.ready = live.ready_seats().to_vec();
                        self.tell_events(live, &[ready], None);
                    }
                    None if live.stage() == Stage::Calling => {
                        self.error(conn, "the cards are still being called");
                    }
                    None => {}
                }
                return;
            }
            ClientMessage::Start => {
                self.error(conn, "the game is on");
                return;
            }
            ClientMessage::Ping => return,
            ClientMessage::DealNow
            | ClientMessage::HandOver { .. }
            | ClientMessage::Remove { .. }
            | ClientMessage::MakeHost { .. }
            | ClientMessage::End => {
                if seat == self.host {
                    self.host_control(Some(live), conn, &message);
                } else {
                    self.error(conn, "only the host does that");
                }
                return;
            }
        };
        match taken {
            Ok(events) => self.tell_events(live, &events, Some(conn)),
            Err(e) => {
                let turn = match e {
                    game::Refused::TooLate { turn } | game::Refused::NotDealt { turn } => {
                        Some(turn)
                    }
                    _ => None,
                };
                let error = ServerMessage::Error {
                    error: e.to_string(),
                    turn,
                };
                self.tell(conn, &error);
            }
        }
    }

    /// Tells the driver's events: to everyone, remembered for the turn,
    /// but a claim that could not be read, which only `caller` is told.
    fn tell_events(&mut self, live: &Live, events: &[Event], caller: Option<u64>) {
        if let Some(won) = &mut self.won {
            for (seat, w) in won.iter_mut().enumerate() {
                *w = live.tally(seat).won;
            }
        }
        let mut called: Option<(usize, u32, Option<String>)> = None;
        for e in events {
            let message = match e {
                Event::Called {
                    seat, ms, claim, ..
                } => {
                    called = Some((*seat, *ms, claim.clone()));
                    continue;
                }
                Event::Ruled {
                    turn,
                    seat,
                    valid,
                    value,
                    fault,
                    witness,
                } => {
                    let (ms, claim) = match called.take() {
                        Some((s, ms, claim)) if s == *seat => (ms, claim),
                        _ => (0, None),
                    };
                    let witness = match (&claim, valid) {
                        (Some(claim), true) => Some(claim.clone()),
                        _ => witness.as_ref().map(|w| w.render(Style::UNICODE)),
                    };
                    ServerMessage::Verdict(VerdictView {
                        turn: *turn,
                        seat: *seat,
                        name: self.seats[*seat].name.clone(),
                        ms,
                        claim,
                        valid: *valid,
                        value: value.and_then(|v| u64::try_from(v).ok()),
                        fault: match (fault, valid) {
                            (Some(f), _) => Some(f.to_string()),
                            (None, false) => Some("a miscalculation".to_string()),
                            (None, true) => None,
                        },
                        witness,
                    })
                }
                Event::NotACall {
                    turn, claim, why, ..
                } => {
                    let message = ServerMessage::NotACall {
                        turn: *turn,
                        claim: claim.clone(),
                        why: why.to_string(),
                    };
                    if let Some(conn) = caller {
                        self.tell(conn, &message);
                    }
                    continue;
                }
                Event::Ready { ready } => {
                    self.broadcast(&ServerMessage::Ready {
                        ready: ready.clone(),
                    });
                    continue;
                }
                Event::Over(over) => {
                    self.won = Some(over.records.iter().map(|t| t.won).collect());
                    let seats = self.seats_message(Some(&over.held));
                    self.broadcast(&seats);
                    let view = self.game_over(over);
                    self.over = Some(view.clone());
                    self.phase = Phase::Over;
                    self.broadcast(&ServerMessage::GameOver(view));
                    continue;
                }
                other => match turn_or_result(live, other, self.pause_ms()) {
                    Some(message) => message,
                    None => continue,
                },
            };
            self.say(&message);
        }
    }

    /// How long the next cards wait after a result unless everyone is
    /// ready sooner; `None`: until everyone is.
    fn pause_ms(&self) -> Option<u64> {
        self.settings
            .pause
            .map(|p| u64::try_from(p.as_millis()).unwrap_or(u64::MAX))
    }

    /// Why the game ended and who won, in a sentence.
    fn why(&self, over: &GameOver) -> String {
        let name = |seat: usize| self.seats[seat].name.clone();
        let most = "and the most cards win";
        let why = match over.ending {
            _ if over.played_out => {
                "nobody at the table had a card left, and the bots played the game out".into()
            }
            Ending::Rules(End::AllCards) => match over.winner {
                Some(w) => format!("{} holds every card", name(w)),
                None => "the game is over".into(),
            },
            Ending::Rules(End::FirstOut { out }) => {
                format!("{} is out of cards, {most}", name(out))
            }
            Ending::Rules(End::ShortOfNine { loser }) => {
                format!(
                    "{} could not give nine cards to a new stockpile",
                    name(loser)
                )
            }
            Ending::Rules(End::NoneLeft { loser }) => format!(
                "{} had no card left after giving nine to the stockpile",
                name(loser)
            ),
            Ending::Rules(End::CannotTurn { loser }) => {
                format!("{} had no card to turn", name(loser))
            }
            _ if over.played_out => {
                "nobody at the table had a card left, and the bots played the game out".into()
            }
            Ending::Turns => format!("the {} turns are up, {most}", over.turns),
            Ending::Target => match over.winner {
                Some(w) => format!(
                    "{} reached {} cards",
                    name(w),
                    self.settings.target.unwrap_or_default()
                ),
                None => format!("a player reached the target, {most}"),
            },
            Ending::CalledOff => format!("the host ended the game, {most}"),
        };
        let who = match over.winner {
            Some(w) => format!("{} wins", name(w)),
            None => "Nobody wins: the most cards are tied, and none of those players won the last combination".into(),
        };
        let mut sentence = format!("{why}. {who}.");
        if let Some(first) = sentence.get(..1) {
            sentence = first.to_uppercase() + &sentence[1..];
        }
        sentence
    }

    /// Who won, and each seat's record.
    fn game_over(&self, over: &GameOver) -> GameOverView {
        let reason = match over.ending {
            _ if over.played_out => "played out",
            Ending::Rules(_) => "won",
            Ending::Turns => "turns",
            Ending::Target => "target",
            Ending::CalledOff => "ended",
        };
        let records = over
            .records
            .iter()
            .enumerate()
            .map(|(s, t)| RecordView {
                seat: s,
                name: self.seats[s].name.clone(),
                held: over.held[s],
                won: t.won,
                valid: t.valid,
                wrong: t.wrong,
                passes: t.passes,
                median_ms: t.median_ms(),
                best: t.best.and_then(|b| u64::try_from(b).ok()),
            })
            .collect();
        GameOverView {
            game: self.games,
            reason,
            why: self.why(over),
            winner: over.winner,
            turns: over.turns,
            records,
        }
    }
}

/// The cards turned, a pass, and how a combination ended, as the room
/// says them.
fn turn_or_result(live: &Live, e: &Event, next_in_ms: Option<u64>) -> Option<ServerMessage> {
    Some(match e {
        Event::Dealt {
            turn,
            shown,
            hand,
            held,
            stock,
            ..
        } => {
            let cards: Vec<prime_solve::Card> = shown
                .cards
                .iter()
                .map(|&id| live.setup().card(id))
                .collect();
            ServerMessage::Turn(TurnView {
                turn: *turn,
                cards: cards.iter().map(|&c| face(c, Style::UNICODE)).collect(),
                tokens: cards.iter().map(|&c| face(c, Style::ASCII)).collect(),
                values: prime_solve::practice::counted(&cards, live.rules().faces)
                    .unwrap_or_default(),
                owners: shown.owners.clone(),
                seats: shown.seats.clone(),
                hand: hand.map(|h| h.values()),
                limit_ms: live.limit_ms(),
                held: held.clone(),
                stock: *stock,
            })
        }
        Event::Passed { turn, seat, ms } => ServerMessage::Passed {
            turn: *turn,
            seat: *seat,
            ms: *ms,
        },
        Event::Won {
            turn,
            seat,
            prime,
            held,
            stock,
            ..
        } => ServerMessage::Won {
            turn: *turn,
            seat: *seat,
            prime: u64::try_from(*prime).ok(),
            held: held.clone(),
            stock: *stock,
            next_in_ms,
        },
        Event::Buried {
            turn,
            why,
            seats,
            held,
            stock,
        } => ServerMessage::Buried {
            turn: *turn,
            why: match why {
                Burial::Tie => "tie",
                Burial::NoCall => "no call",
                Burial::NoPrime => "no prime",
            },
            seats: seats.clone(),
            held: held.clone(),
            stock: *stock,
            next_in_ms,
        },
        _ => return None,
    })
}

fn ms_since(start: Instant) -> u32 {
    u32::try_from(start.elapsed().as_millis()).unwrap_or(u32::MAX)
}
