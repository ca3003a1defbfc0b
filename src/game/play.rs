//! The games themselves: three or more players racing on the cards they
//! turn, and two players with a stockpile that is rebuilt between rounds.
//! Each `step` resolves one combination, so tests can check every state.
//! The file holds the rules of play for three or more players and for two,
//! the endgames that join them, and the one rule that names the winner of
//! a game stopped before its end.

use std::collections::VecDeque;

use crate::card::Card;
use crate::game::calls::{CallBook, Callable};
use crate::game::player::{Draws, Model};
use crate::game::turn::Call;
use crate::game::turn::{Outcome, Timing, resolve};
use crate::hand::Hand;
use crate::pack;
use crate::rng::Rng;
use crate::rules::Faces;

/// A card of the pack by its position in `pack::cards()`: 0-51 ranked, 52
/// and 53 the Jokers.
pub type CardId = u8;

pub const PACK_SIZE: usize = 54;

/// Everything a game consults and never changes.
pub struct Setup<'a> {
    pub book: &'a CallBook,
    pub players: Vec<Model>,
    pub timing: Timing,
    /// The pack, indexed by card id.
    pack: Vec<Card>,
    faces: Faces,
}

impl<'a> Setup<'a> {
    pub fn new(book: &'a CallBook, players: Vec<Model>, faces: Faces, timing: Timing) -> Setup<'a> {
        Setup {
            book,
            players,
            timing,
            pack: pack::cards(),
            faces,
        }
    }

    /// The hand the cards show (Jokers copying the highest other card);
    /// `None` for Jokers only.
    pub fn hand(&self, cards: &[CardId]) -> Option<Hand> {
        let cards: Vec<Card> = cards.iter().map(|&c| self.pack[usize::from(c)]).collect();
        // Cards of the real pack: the hand is dealable without checking.
        Hand::from_any_cards(&cards, self.faces).ok()
    }

    /// The primes the hand on `cards` makes (none for Jokers only).
    pub fn options(&self, cards: &[CardId]) -> &[Callable] {
        self.hand(cards).map_or(&[][..], |h| self.book.options(h))
    }

    /// The calls the models of `seats` make on `cards`, drawn in seat order.
    pub fn draw_calls(
        &self,
        cards: &[CardId],
        seats: &[usize],
        rng: &mut Rng,
    ) -> Vec<(usize, Call)> {
        let draws: Vec<Draws> = seats.iter().map(|_| Draws::draw(rng)).collect();
        self.calls_with(cards, seats, &draws)
    }

    /// The calls the models of `seats` make on `cards` with these draws,
    /// one per seat.
    pub fn calls_with(
        &self,
        cards: &[CardId],
        seats: &[usize],
        draws: &[Draws],
    ) -> Vec<(usize, Call)> {
        let options = self.options(cards);
        seats
            .iter()
            .zip(draws)
            .filter_map(|(&p, d)| self.players[p].decide(options, d).map(|c| (p, c)))
            .collect()
    }

    /// The card with this id.
    pub fn card(&self, id: CardId) -> Card {
        self.pack[usize::from(id)]
    }
}

/// How one game went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Whether the game ended within the turn cap.
    pub finished: bool,
    /// The rules' winner of a finished game; of a game stopped before its
    /// end, the leader ([`leader`]); `None` for a draw.
    pub winner: Option<usize>,
    /// How a finished game ended by the rules.
    pub end: Option<End>,
    /// Combinations shown, re-turns after ties and buried hands included.
    pub turns: u32,
    pub ties: u32,
    /// Combinations nobody called validly.
    pub no_calls: u32,
    /// Of those, combinations that make no prime at all.
    pub no_prime: u32,
    /// Two-player stockpile rebuilds.
    pub rebuilds: u32,
    /// Combinations shown after the first player is out, in a game of
    /// three or more: the endgame.
    pub endgame_turns: u32,
    /// Of the ties and the combinations nobody called, those in the
    /// endgame.
    pub endgame_ties: u32,
    pub endgame_no_calls: u32,
}

/// How a game ends by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// One player holds every card the players hold.
    AllCards,
    /// A player is out, and under [`Endgame::FirstOut`] that ends it.
    FirstOut { out: usize },
    /// Two-player stockpile game: `loser` could not give
    /// [`STOCK_SHARE`] cards to a new stockpile.
    ShortOfNine { loser: usize },
    /// `loser` had no card left after giving them.
    NoneLeft { loser: usize },
    /// `loser` could not turn a card.
    CannotTurn { loser: usize },
}

/// The winner of a game that stops with cards in several hands (a game
/// called off, stopped at its turn limit or at a target, or ended when the
/// first player is out): the player holding the most cards; between
/// players tied on the most, the one who won the latest combination; if
/// none of them did, nobody (a draw). `held` counts each player's cards,
/// their pile and their card on the table.
pub fn leader(held: &[usize], last_winner: Option<usize>) -> Option<usize> {
    let most = *held.iter().max()?;
    let leaders: Vec<usize> = (0..held.len()).filter(|&p| held[p] == most).collect();
    match leaders[..] {
        [one] => Some(one),
        _ => last_winner.filter(|w| leaders.contains(w)),
    }
}

/// The combination on the table: who turned a card on it (and may call),
/// and the cards, in seat order, each with the seat that turned it (`None`
/// for the stockpile's top card, the last).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub seats: Vec<usize>,
    pub cards: Vec<CardId>,
    pub owners: Vec<Option<usize>>,
}

impl Shown {
    /// The cards `seat` turned.
    pub fn cards_of(&self, seat: usize) -> impl Iterator<Item = CardId> + '_ {
        self.owners
            .iter()
            .zip(&self.cards)
            .filter(move |(o, _)| **o == Some(seat))
            .map(|(_, &c)| c)
    }

    /// The stockpile's top card, if it is part of the combination.
    pub fn stock_card(&self) -> Option<CardId> {
        self.owners
            .iter()
            .zip(&self.cards)
            .find(|(o, _)| o.is_none())
            .map(|(_, &c)| c)
    }
}

/// What either kind of game holds: the players' piles, the combination
/// on the table, the stockpile and the record.
#[derive(Default)]
pub struct Board {
    piles: Vec<VecDeque<CardId>>,
    /// The combination being called on, (player, card), if any.
    table: Vec<(usize, CardId)>,
    /// Top card last.
    stock: Vec<CardId>,
    record: Record,
    /// Who won the latest combination, for [`leader`].
    last_winner: Option<usize>,
}

/// The state of either kind of game. A combination is played in two
/// halves, so that calls can come from anywhere between them (the models
/// in `step`, a person at the keyboard in `live`): `show` turns it up and
/// `settle` applies how it ended.
pub trait Game: Send {
    /// Turns up the next combination (or shows again the one re-turned
    /// after a tie or a buried hand); `None` once the game is over.
    fn show(&mut self, rng: &mut Rng) -> Option<Shown>;
    /// Applies the outcome of the combination shown; `impossible` when its
    /// hand makes no prime at all.
    fn settle(&mut self, outcome: &Outcome, impossible: bool, rng: &mut Rng);
    /// The cards where they lie, and the record.
    fn board(&self) -> &Board;
    fn board_mut(&mut self) -> &mut Board;
    /// Every card, wherever it is (for invariant checks).
    fn cards(&self) -> Vec<CardId> {
        let board = self.board();
        let mut all: Vec<CardId> = board.piles.iter().flatten().copied().collect();
        all.extend(board.table.iter().map(|&(_, c)| c));
        all.extend(&board.stock);
        all
    }
    /// Each player's pile, top card first.
    fn piles(&self) -> Vec<&VecDeque<CardId>> {
        self.board().piles.iter().collect()
    }
    /// The cards on the table, (player, card).
    fn table(&self) -> &[(usize, CardId)] {
        &self.board().table
    }
    /// The stockpile, top card last, while a game has one.
    fn stock(&self) -> Option<&[CardId]>;
    fn record(&self) -> &Record {
        &self.board().record
    }
    fn record_mut(&mut self) -> &mut Record {
        &mut self.board_mut().record
    }
    /// Cards each player holds: their pile and their cards on the table.
    fn held(&self) -> Vec<usize> {
        let board = self.board();
        let mut held: Vec<usize> = board.piles.iter().map(VecDeque::len).collect();
        for &(p, _) in &board.table {
            held[p] += 1;
        }
        held
    }
    /// Who won the latest combination.
    fn last_winner(&self) -> Option<usize> {
        self.board().last_winner
    }
    /// Stops a game before its end (a turn limit, a target, the host):
    /// its winner is the [`leader`]. A finished game keeps its own.
    fn call_off(&mut self) {
        if !self.record().finished {
            let winner = leader(&self.held(), self.last_winner());
            self.record_mut().winner = winner;
        }
    }

    /// Resolves one combination between the models; `true` once the game
    /// is over.
    fn step(&mut self, setup: &Setup, rng: &mut Rng) -> bool {
        let Some(shown) = self.show(rng) else {
            return true;
        };
        let calls = setup.draw_calls(&shown.cards, &shown.seats, rng);
        let outcome = resolve(&calls, setup.timing);
        let impossible = setup.options(&shown.cards).is_empty();
        self.settle(&outcome, impossible, rng);
        false
    }
}

/// Plays a game between the models to its end or to `max_turns`
/// combinations (then called off: [`Game::call_off`]).
pub fn play(game: &mut dyn Game, setup: &Setup, max_turns: u32, rng: &mut Rng) -> Record {
    while game.record().turns < max_turns {
        if game.step(setup, rng) {
            game.record_mut().finished = true;
            break;
        }
    }
    game.call_off();
    game.record().clone()
}

/// Puts `card` back at a random place in `pile` and turns its top card.
fn bury(pile: &mut VecDeque<CardId>, card: CardId, rng: &mut Rng) -> CardId {
    let at = rng.below(pile.len() as u64 + 1) as usize;
    pile.insert(at, card);
    pile.pop_front().expect("the buried card at least")
}

/// After a tie or a buried hand: `who` bury their cards and turn the next.
fn rebury(
    table: &mut [(usize, CardId)],
    piles: &mut [VecDeque<CardId>],
    who: &[usize],
    rng: &mut Rng,
) {
    for (p, card) in table.iter_mut() {
        if who.contains(p) {
            *card = bury(&mut piles[*p], *card, rng);
        }
    }
}

/// What happens in a game of three or more once a player is out. While
/// three or more players hold cards, each turns one; the variants differ in
/// what the last two do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Endgame {
    /// The last two play the rules' own two-player game: each gives their
    /// top nine cards to a face-up stockpile whose top card is the third
    /// card, rebuilt the same way when it is used up; a player who cannot
    /// give nine cards, or has none left after giving them, loses.
    #[default]
    Stockpile,
    /// The last two play on, one card each (two cards on the table), until
    /// one holds every card.
    TwoCards,
    /// The game ends when the first player is out: the most cards wins;
    /// between players tied on the most, the one who won the latest
    /// combination, and if none of them did, the game is a draw.
    FirstOut,
    /// The last two play on, the one holding fewer cards turning two (on
    /// equal piles, the lower seat), until one holds every card.
    TrailingTwo,
    /// The last two play on, the one holding more cards turning two (on
    /// equal piles, the lower seat), until one holds every card.
    LeadingTwo,
}

impl Endgame {
    pub const ALL: [Endgame; 5] = [
        Endgame::Stockpile,
        Endgame::TwoCards,
        Endgame::FirstOut,
        Endgame::TrailingTwo,
        Endgame::LeadingTwo,
    ];

    /// The name on the command line: `two-cards`.
    pub fn name(self) -> &'static str {
        match self {
            Endgame::Stockpile => "stockpile",
            Endgame::TwoCards => "two-cards",
            Endgame::FirstOut => "first-out",
            Endgame::TrailingTwo => "trailing-two",
            Endgame::LeadingTwo => "leading-two",
        }
    }

    /// What the last two players do, in a few words.
    pub fn describe(self) -> &'static str {
        match self {
            Endgame::Stockpile => "the last two play the two-player stockpile game",
            Endgame::TwoCards => "the last two play on with two cards on the table",
            Endgame::FirstOut => "over when the first player is out, the most cards winning",
            Endgame::TrailingTwo => "the last two play on, the one behind turning two cards",
            Endgame::LeadingTwo => "the last two play on, the one ahead turning two cards",
        }
    }
}

/// Three or more players: each turns a card; the winner of a combination
/// takes its cards; a player with no cards is out; the last two play as
/// the [`Endgame`] says.
pub struct Multi {
    /// The stockpile is that of the last two ([`Endgame::Stockpile`]).
    board: Board,
    endgame: Endgame,
}

impl Multi {
    /// Shuffles the pack and deals it round the `players` (18 each for three).
    pub fn deal(players: usize, rng: &mut Rng) -> Multi {
        let mut cards: Vec<CardId> = (0..PACK_SIZE as CardId).collect();
        rng.shuffle(&mut cards);
        let mut piles = vec![VecDeque::new(); players];
        for (i, c) in cards.into_iter().enumerate() {
            piles[i % players].push_back(c);
        }
        Multi::from_piles(piles)
    }

    /// A game from given piles (top card first), for tests.
    pub(crate) fn from_piles(piles: Vec<VecDeque<CardId>>) -> Multi {
        Multi {
            board: Board {
                piles,
                ..Board::default()
            },
            endgame: Endgame::default(),
        }
    }

    /// The same game, ended as `endgame` says.
    pub fn with_endgame(self, endgame: Endgame) -> Multi {
        Multi { endgame, ..self }
    }

    /// Players still in: holding cards or with a card on the table.
    fn live_players(&self) -> usize {
        (0..self.board.piles.len())
            .filter(|&p| {
                !self.board.piles[p].is_empty() || self.board.table.iter().any(|&(q, _)| q == p)
            })
            .count()
    }

    /// Turns up a new combination; `false` once the game is over (its
    /// winner recorded).
    fn turn_up(&mut self, rng: &mut Rng) -> bool {
        let active: Vec<usize> = (0..self.board.piles.len())
            .filter(|&p| !self.board.piles[p].is_empty())
            .collect();
        if active.len() <= 1 {
            self.board.record.winner = active.first().copied();
            self.board.record.end = Some(End::AllCards);
            return false;
        }
        if active.len() < self.board.piles.len() && self.endgame == Endgame::FirstOut {
            // The table is empty here: the piles are what each holds.
            let held: Vec<usize> = self.board.piles.iter().map(VecDeque::len).collect();
            let out = (0..held.len()).find(|&p| held[p] == 0).unwrap_or(0);
            self.board.record.winner = leader(&held, self.board.last_winner);
            self.board.record.end = Some(End::FirstOut { out });
            return false;
        }
        let last_two = active.len() == 2 && self.board.piles.len() > 2;
        // Who turns two cards, if anyone.
        let double = match (last_two, self.endgame) {
            (true, Endgame::TrailingTwo | Endgame::LeadingTwo) => {
                let [a, b] = [active[0], active[1]];
                let (la, lb) = (self.board.piles[a].len(), self.board.piles[b].len());
                let a_turns = if self.endgame == Endgame::TrailingTwo {
                    la <= lb
                } else {
                    la >= lb
                };
                Some(if a_turns { a } else { b })
            }
            _ => None,
        };
        if last_two && self.endgame == Endgame::Stockpile && self.board.stock.is_empty() {
            // A new round of the two-player game.
            let [a, b] = [active[0], active[1]];
            if let Err(loser) = rebuild(&mut self.board.piles, [a, b], &mut self.board.stock, rng) {
                self.board.record.end = Some(lost_at_rebuild(loser, &self.board.stock));
                self.board.record.rebuilds += u32::from(!self.board.stock.is_empty());
                self.board.record.winner = Some(if loser == a { b } else { a });
                return false;
            }
            self.board.record.rebuilds += 1;
        }
        for p in active {
            let card = self.board.piles[p].pop_front().expect("active");
            self.board.table.push((p, card));
            if double == Some(p)
                && let Some(second) = self.board.piles[p].pop_front()
            {
                self.board.table.push((p, second));
            }
        }
        true
    }
}

/// How a player lost at a rebuild: short of nine cards (nothing was
/// moved: the stockpile is still empty), or left with none after giving
/// them.
fn lost_at_rebuild(loser: usize, stock: &[CardId]) -> End {
    if stock.is_empty() {
        End::ShortOfNine { loser }
    } else {
        End::NoneLeft { loser }
    }
}

/// A new stockpile for the two-player game from the players `seats`: each
/// gives their top [`STOCK_SHARE`] cards, shuffled together. `Err` with the
/// player who loses: the first who cannot give them (nothing is moved), or
/// who has no card left after giving them.
fn rebuild(
    piles: &mut [VecDeque<CardId>],
    seats: [usize; 2],
    stock: &mut Vec<CardId>,
    rng: &mut Rng,
) -> Result<(), usize> {
    if let Some(&short) = seats.iter().find(|&&p| piles[p].len() < STOCK_SHARE) {
        return Err(short);
    }
    for p in seats {
        stock.extend(piles[p].drain(..STOCK_SHARE));
    }
    rng.shuffle(stock);
    match seats.iter().find(|&&p| piles[p].is_empty()) {
        Some(&empty) => Err(empty),
        None => Ok(()),
    }
}

impl Game for Multi {
    fn show(&mut self, rng: &mut Rng) -> Option<Shown> {
        if self.board.table.is_empty() && !self.turn_up(rng) {
            return None;
        }
        self.board.record.turns += 1;
        self.board.record.endgame_turns += u32::from(self.board.piles.len() > self.live_players());
        let mut cards: Vec<CardId> = self.board.table.iter().map(|&(_, c)| c).collect();
        let mut owners: Vec<Option<usize>> =
            self.board.table.iter().map(|&(p, _)| Some(p)).collect();
        if let Some(&top) = self.board.stock.last() {
            cards.push(top);
            owners.push(None);
        }
        let mut seats: Vec<usize> = self.board.table.iter().map(|&(p, _)| p).collect();
        seats.dedup();
        Some(Shown {
            seats,
            cards,
            owners,
        })
    }

    fn settle(&mut self, outcome: &Outcome, impossible: bool, rng: &mut Rng) {
        let endgame = u32::from(self.board.piles.len() > self.live_players());
        match outcome {
            Outcome::Win(w) => {
                let mut won: Vec<CardId> = self.board.table.drain(..).map(|(_, c)| c).collect();
                won.extend(self.board.stock.pop());
                self.board.piles[*w].extend(won);
                self.board.last_winner = Some(*w);
            }
            Outcome::Tie(players) => {
                self.board.record.ties += 1;
                self.board.record.endgame_ties += endgame;
                rebury(&mut self.board.table, &mut self.board.piles, players, rng);
            }
            Outcome::NoCall => {
                self.board.record.no_calls += 1;
                self.board.record.no_prime += u32::from(impossible);
                self.board.record.endgame_no_calls += endgame;
                let everyone: Vec<usize> = self.board.table.iter().map(|&(p, _)| p).collect();
                rebury(&mut self.board.table, &mut self.board.piles, &everyone, rng);
            }
        }
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    fn stock(&self) -> Option<&[CardId]> {
        (!self.board.stock.is_empty()).then_some(&self.board.stock[..])
    }
}

/// How many cards each player gives to a new stockpile.
pub const STOCK_SHARE: usize = 9;

/// Two players: 18 cards each and an 18-card face-up stockpile whose top
/// card is the third card. When the stockpile is used up, each gives their
/// top nine cards to a new one (shuffled); a player who cannot, or has no
/// card left after doing so, or cannot turn a card, loses.
pub struct Duel {
    board: Board,
}

impl Duel {
    pub fn deal(rng: &mut Rng) -> Duel {
        let mut cards: Vec<CardId> = (0..PACK_SIZE as CardId).collect();
        rng.shuffle(&mut cards);
        let stock = cards.split_off(36);
        let second = cards.split_off(18);
        Duel::from_parts([cards.into(), second.into()], stock)
    }

    /// A game from given piles (top card first) and stockpile (top last).
    pub(crate) fn from_parts(piles: [VecDeque<CardId>; 2], stock: Vec<CardId>) -> Duel {
        Duel {
            board: Board {
                piles: piles.into(),
                stock,
                ..Board::default()
            },
        }
    }

    /// Ends the game with `loser` losing, as `end` says.
    fn lose(&mut self, loser: usize, end: End) {
        self.board.record.winner = Some(1 - loser);
        self.board.record.end = Some(end);
    }
}

impl Game for Duel {
    fn show(&mut self, rng: &mut Rng) -> Option<Shown> {
        if self.board.table.is_empty() {
            if self.board.stock.is_empty() {
                // A new round: each contributes their top nine cards.
                if let Err(loser) =
                    rebuild(&mut self.board.piles, [0, 1], &mut self.board.stock, rng)
                {
                    let end = lost_at_rebuild(loser, &self.board.stock);
                    self.board.record.rebuilds += u32::from(!self.board.stock.is_empty());
                    self.lose(loser, end);
                    return None;
                }
                self.board.record.rebuilds += 1;
            }
            for p in 0..2 {
                match self.board.piles[p].pop_front() {
                    Some(card) => self.board.table.push((p, card)),
                    None => {
                        // Cannot turn a card: put back what was turned.
                        for (q, card) in self.board.table.drain(..) {
                            self.board.piles[q].push_front(card);
                        }
                        self.lose(p, End::CannotTurn { loser: p });
                        return None;
                    }
                }
            }
        }
        self.board.record.turns += 1;
        // The stockpile's top card is the third card.
        let mut cards: Vec<CardId> = self.board.table.iter().map(|&(_, c)| c).collect();
        cards.push(*self.board.stock.last().expect("a stockpile card"));
        Some(Shown {
            seats: vec![0, 1],
            cards,
            owners: vec![Some(0), Some(1), None],
        })
    }

    fn settle(&mut self, outcome: &Outcome, impossible: bool, rng: &mut Rng) {
        match outcome {
            Outcome::Win(w) => {
                let mut won: Vec<CardId> = self.board.table.drain(..).map(|(_, c)| c).collect();
                won.push(self.board.stock.pop().expect("a stockpile card"));
                self.board.piles[*w].extend(won);
                self.board.last_winner = Some(*w);
            }
            Outcome::Tie(players) => {
                self.board.record.ties += 1;
                rebury(&mut self.board.table, &mut self.board.piles, players, rng);
            }
            Outcome::NoCall => {
                self.board.record.no_calls += 1;
                self.board.record.no_prime += u32::from(impossible);
                rebury(&mut self.board.table, &mut self.board.piles, &[0, 1], rng);
            }
        }
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    fn stock(&self) -> Option<&[CardId]> {
        Some(&self.board.stock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::Strategy;
    use crate::rules::HouseRules;
    use crate::rules::Rules;

    /// A player with no randomness: finds every prime, calls after
    /// exactly `base_ms`, wrongly for `mistakes_per_mille` 1000.
    fn steady(base_ms: u32, mistakes_per_mille: u32, strategy: Strategy) -> Model {
        Model {
            name: "steady".into(),
            reach: 1_000.0,
            knows: HouseRules::NONE,
            known_primes: 1_000,
            base_ms: f64::from(base_ms),
            per_weight_ms: 0.0,
            per_digit_ms: 0.0,
            sigma: 0.0,
            search_ms: 0.0,
            strategy,
            mistakes: f64::from(mistakes_per_mille),
            mistakes_per_weight: 0.0,
            mistakes_per_digit: 0.0,
            ..Model::EXPERT
        }
    }

    fn book() -> CallBook {
        CallBook::new(
            Rules::default(),
            &[2, 3],
            &crate::engine::Budget::unlimited(),
        )
        .unwrap()
    }

    /// Card ids of the spades: ace is 0, two is 1, ... ten is 9.
    fn spade(value: u8) -> CardId {
        value - 1
    }

    fn pile(values: &[u8]) -> VecDeque<CardId> {
        values.iter().map(|&v| spade(v)).collect()
    }

    fn assert_whole_pack(game: &dyn Game) {
        let mut cards = game.cards();
        cards.sort_unstable();
        assert_eq!(cards, (0..PACK_SIZE as CardId).collect::<Vec<_>>());
    }

    /// One combination of a three-player game with these players and
    /// piles (values of spades, top first).
    fn one_step(players: [Model; 3], piles: [&[u8]; 3], seed: u64) -> Multi {
        let book = book();
        let setup = Setup::new(&book, players.to_vec(), Faces::Five, Timing::default());
        let mut game = Multi::from_piles(piles.iter().map(|p| pile(p)).collect());
        assert!(!game.step(&setup, &mut Rng::new(seed)));
        game
    }

    #[test]
    fn the_fastest_valid_caller_takes_the_cards() {
        let first = |ms| steady(ms, 0, Strategy::First);
        // 4, 6, 8 on the table: player 1 is fastest.
        let game = one_step(
            [first(3000), first(1000), first(2000)],
            [&[4, 1], &[6], &[8]],
            1,
        );
        assert_eq!(game.board.piles[1], pile(&[4, 6, 8]));
        assert_eq!(game.board.piles[2].len(), 0);
    }

    #[test]
    fn first_out_ends_the_game_and_counts_the_cards() {
        let first = |ms| steady(ms, 0, Strategy::First);
        let book = book();
        let setup = Setup::new(
            &book,
            vec![first(3000), first(1000), first(2000)],
            Faces::Five,
            Timing::default(),
        );
        // Player 1 takes 4 6 8, player 2 is out: the game ends at once,
        // player 1 holding the most (4 against 1 and 0).
        let piles = |a: &[u8], b: &[u8], c: &[u8]| vec![pile(a), pile(b), pile(c)];
        let mut game =
            Multi::from_piles(piles(&[4, 1], &[6, 9], &[8])).with_endgame(Endgame::FirstOut);
        let mut rng = Rng::new(1);
        assert!(!game.step(&setup, &mut rng));
        assert!(game.step(&setup, &mut rng), "the game is over");
        assert_eq!(game.record().winner, Some(1));
        assert_whole_pack_of(&game, 5);
        // Under the two-card endgame the same position plays on.
        let mut on =
            Multi::from_piles(piles(&[4, 1], &[6, 9], &[8])).with_endgame(Endgame::TwoCards);
        assert!(!on.step(&setup, &mut rng));
        assert!(!on.step(&setup, &mut rng));
        // Tied on the most cards: the latest combination's winner wins; if
        // neither tied player won it, a draw.
        let mut tied =
            Multi::from_piles(piles(&[2, 5, 5], &[5, 5, 5], &[])).with_endgame(Endgame::FirstOut);
        tied.board.last_winner = Some(1);
        assert!(tied.step(&setup, &mut rng));
        assert_eq!(tied.record().winner, Some(1));
        let mut drawn =
            Multi::from_piles(piles(&[2, 5, 5], &[5, 5, 5], &[])).with_endgame(Endgame::FirstOut);
        drawn.board.last_winner = Some(2);
        assert!(drawn.step(&setup, &mut rng));
        assert_eq!(drawn.record().winner, None);
        assert_eq!(drawn.record().turns, 0, "no combination was shown");
    }

    /// Every one of `n` cards of a hand-made game is somewhere.
    fn assert_whole_pack_of(game: &Multi, n: usize) {
        let mut all = game.cards();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    #[test]
    fn a_higher_prime_in_time_beats_the_first_call() {
        // Player 0 calls the easiest prime first; player 1 the highest, a
        // little later but within the override window.
        let players = [
            steady(1000, 0, Strategy::First),
            steady(1500, 0, Strategy::Highest),
            steady(9000, 0, Strategy::First),
        ];
        let game = one_step(players, [&[2], &[3], &[6]], 1);
        assert_eq!(game.board.piles[1].len(), 3, "{:?}", game.board.piles);
    }

    #[test]
    fn equal_calls_at_once_bury_the_tied_cards() {
        let twin = steady(1000, 0, Strategy::First);
        let twin = || twin.clone();
        let game = one_step(
            [twin(), twin(), steady(9000, 0, Strategy::First)],
            [&[4, 1], &[6, 2], &[8, 3]],
            3,
        );
        assert_eq!(game.record().ties, 1);
        // The tied players' cards went back into their piles and their next
        // cards were turned; nobody has won anything.
        let on_table: Vec<CardId> = game.board.table.iter().map(|&(_, c)| c).collect();
        assert!(on_table.contains(&spade(8)));
        assert_eq!(game.board.piles.iter().map(VecDeque::len).sum::<usize>(), 3);
        assert_eq!(game.cards().len(), 6);
    }

    #[test]
    fn a_wrong_call_bars_the_caller() {
        let players = [
            steady(500, 1000, Strategy::First),
            steady(4000, 0, Strategy::First),
            steady(9000, 0, Strategy::First),
        ];
        let game = one_step(players, [&[4], &[6], &[8]], 1);
        assert_eq!(game.board.piles[1].len(), 3);
    }

    #[test]
    fn a_hand_with_no_call_is_buried_and_the_game_ends_with_one_holder() {
        let book = book();
        let players = vec![steady(1000, 1000, Strategy::First); 3];
        let setup = Setup::new(&book, players, Faces::Five, Timing::default());
        let mut game = Multi::from_piles(vec![pile(&[4, 5]), pile(&[6]), pile(&[8])]);
        game.step(&setup, &mut Rng::new(1));
        assert_eq!(game.record().no_calls, 1);
        assert_eq!(game.record().no_prime, 0);
        // One player holding every card has won.
        let mut done = Multi::from_piles(vec![pile(&[4, 5, 6]), VecDeque::new(), VecDeque::new()]);
        assert!(done.step(&setup, &mut Rng::new(1)));
        assert_eq!(done.record().winner, Some(0));
    }

    fn duel_setup(book: &CallBook) -> Setup<'_> {
        let players = vec![
            steady(1000, 0, Strategy::First),
            steady(2000, 0, Strategy::First),
        ];
        Setup::new(book, players, Faces::Five, Timing::default())
    }

    /// Splits the pack: `a` cards to the first player, the rest to the second.
    fn split_pack(a: usize) -> [VecDeque<CardId>; 2] {
        let cards: Vec<CardId> = (0..PACK_SIZE as CardId).collect();
        [
            cards[..a].iter().copied().collect(),
            cards[a..].iter().copied().collect(),
        ]
    }

    #[test]
    fn the_stockpile_is_rebuilt_from_nine_cards_each() {
        let book =
            CallBook::new(Rules::default(), &[3], &crate::engine::Budget::unlimited()).unwrap();
        let setup = duel_setup(&book);
        let mut game = Duel::from_parts(split_pack(27), Vec::new());
        game.step(&setup, &mut Rng::new(5));
        assert_eq!(game.record().rebuilds, 1);
        // Nine from each: 18 in the stockpile, less the one just won.
        let won = usize::from(game.board.table.is_empty());
        assert_eq!(game.board.stock.len(), 18 - won);
        assert_whole_pack(&game);
    }

    #[test]
    fn a_player_short_of_nine_cards_loses_at_the_rebuild() {
        let book =
            CallBook::new(Rules::default(), &[3], &crate::engine::Budget::unlimited()).unwrap();
        let setup = duel_setup(&book);
        let mut game = Duel::from_parts(split_pack(8), Vec::new());
        assert!(game.step(&setup, &mut Rng::new(5)));
        assert_eq!(game.record().winner, Some(1));
    }

    #[test]
    fn a_player_left_with_nothing_after_the_rebuild_loses() {
        let book =
            CallBook::new(Rules::default(), &[3], &crate::engine::Budget::unlimited()).unwrap();
        let setup = duel_setup(&book);
        let mut game = Duel::from_parts(split_pack(45), Vec::new());
        assert!(game.step(&setup, &mut Rng::new(5)));
        assert_eq!(game.record().winner, Some(0));
        assert_eq!(game.record().rebuilds, 1);
    }

    #[test]
    fn a_player_who_cannot_turn_a_card_loses() {
        let book =
            CallBook::new(Rules::default(), &[3], &crate::engine::Budget::unlimited()).unwrap();
        let setup = duel_setup(&book);
        let [stock, b] = split_pack(18);
        let mut game = Duel::from_parts([VecDeque::new(), b], stock.into());
        assert!(game.step(&setup, &mut Rng::new(5)));
        assert_whole_pack(&game);
        assert_eq!(game.record().winner, Some(1));
    }

    /// Plays a game step by step, checking that all 54 cards are somewhere
    /// after every step; the record at the end (or at `cap` steps).
    fn conserve(game: &mut dyn Game, setup: &Setup, rng: &mut Rng, cap: u32) -> Record {
        for _ in 0..cap {
            assert_whole_pack(game);
            if game.step(setup, rng) {
                assert_whole_pack(game);
                game.record_mut().finished = true;
                break;
            }
        }
        game.record().clone()
    }

    #[test]
    fn every_card_stays_in_play_under_every_endgame() {
        let book = CallBook::new(
            Rules::default(),
            &[2, 3, 4],
            &crate::engine::Budget::unlimited(),
        )
        .unwrap();
        let lineups = [
            vec![Model::EXPERT; 3],
            vec![Model::EXPERT, Model::CLUB, Model::NOVICE],
            vec![Model::CLUB; 4],
        ];
        for endgame in Endgame::ALL {
            for (l, players) in lineups.iter().enumerate() {
                let setup = Setup::new(&book, players.clone(), Faces::Five, Timing::default());
                let mut finished = 0;
                for seed in 0..6 {
                    let mut rng = Rng::for_game(seed, l as u64);
                    let mut game = Multi::deal(players.len(), &mut rng).with_endgame(endgame);
                    let r = conserve(&mut game, &setup, &mut rng, 6_000);
                    assert!(r.endgame_turns <= r.turns);
                    assert!(r.endgame_ties <= r.ties && r.endgame_no_calls <= r.no_calls);
                    if !r.finished {
                        continue;
                    }
                    finished += 1;
                    let holders = game.board.piles.iter().filter(|p| !p.is_empty()).count();
                    match endgame {
                        // Over with the first player out: the winner holds
                        // the most.
                        Endgame::FirstOut => {
                            assert!(game.board.piles.iter().any(VecDeque::is_empty));
                            let most = game.board.piles.iter().map(VecDeque::len).max().unwrap();
                            if let Some(w) = r.winner {
                                assert_eq!(game.board.piles[w].len(), most);
                            }
                        }
                        // The loser could not give nine cards, or had none
                        // left: at most two hold cards, and the winner is
                        // one of them.
                        Endgame::Stockpile => {
                            assert!(holders <= 2, "{endgame:?}");
                            let w = r.winner.expect("a stockpile game has a winner");
                            assert!(!game.board.piles[w].is_empty());
                        }
                        _ => {
                            assert_eq!(holders, 1, "{endgame:?}");
                            assert_eq!(game.board.piles[r.winner.unwrap()].len(), PACK_SIZE);
                        }
                    }
                }
                // Equal experts under the first-out and stockpile endgames
                // always finish well within the cap.
                if matches!(endgame, Endgame::FirstOut | Endgame::Stockpile) {
                    assert_eq!(finished, 6, "{endgame:?} {l}");
                }
            }
        }
        let book =
            CallBook::new(Rules::default(), &[3], &crate::engine::Budget::unlimited()).unwrap();
        for seed in 0..40 {
            let setup = Setup::new(
                &book,
                vec![Model::EXPERT, Model::NOVICE],
                Faces::Five,
                Timing::default(),
            );
            let mut rng = Rng::for_game(seed, 1);
            let mut game = Duel::deal(&mut rng);
            conserve(&mut game, &setup, &mut rng, 3_000);
        }
    }

    #[test]
    fn the_player_behind_or_ahead_turns_two_cards() {
        let first = |ms| steady(ms, 0, Strategy::First);
        let book = CallBook::new(
            Rules::default(),
            &[2, 3],
            &crate::engine::Budget::unlimited(),
        )
        .unwrap();
        let setup = Setup::new(
            &book,
            vec![first(1000), first(2000), first(3000)],
            Faces::Five,
            Timing::default(),
        );
        // Player 2 is out; player 0 holds two cards, player 1 three.
        let piles = || vec![pile(&[2, 3]), pile(&[4, 6, 8]), VecDeque::new()];
        let mut rng = Rng::new(1);
        let mut trailing = Multi::from_piles(piles()).with_endgame(Endgame::TrailingTwo);
        let shown = trailing.show(&mut rng).unwrap();
        assert_eq!(shown.cards, [spade(2), spade(3), spade(4)]);
        assert_eq!(shown.seats, [0, 1]);
        assert_eq!(shown.owners, [Some(0), Some(0), Some(1)]);
        assert_eq!(shown.cards_of(0).collect::<Vec<_>>(), [spade(2), spade(3)]);
        assert_eq!(shown.stock_card(), None);
        let mut leading = Multi::from_piles(piles()).with_endgame(Endgame::LeadingTwo);
        assert_eq!(
            leading.show(&mut rng).unwrap().cards,
            [spade(2), spade(4), spade(6)]
        );
        // The stockpile endgame: both short of nine cards, the first loses
        // at once.
        let mut stock = Multi::from_piles(piles()).with_endgame(Endgame::Stockpile);
        assert!(stock.step(&setup, &mut rng));
        assert_eq!(stock.record().winner, Some(1));
        // With enough cards the last two give nine each to a stockpile
        // whose top card is the third card, won with the combination.
        let cards: Vec<CardId> = (0..PACK_SIZE as CardId).collect();
        let big = vec![
            cards[..20].iter().copied().collect(),
            cards[20..54].iter().copied().collect(),
            VecDeque::new(),
        ];
        let mut stock = Multi::from_piles(big).with_endgame(Endgame::Stockpile);
        let shown = stock.show(&mut rng).unwrap();
        assert_eq!(shown.cards.len(), 3);
        assert_eq!(shown.owners, [Some(0), Some(1), None]);
        assert_eq!(shown.stock_card(), shown.cards.last().copied());
        assert_eq!(stock.stock().unwrap().len(), 18);
        assert_eq!(stock.record().rebuilds, 1);
        assert_eq!(stock.record().endgame_turns, 1);
        stock.settle(&Outcome::Win(0), false, &mut rng);
        assert_eq!(stock.stock().unwrap().len(), 17);
        assert_eq!(stock.board.piles[0].len(), 20 - 9 - 1 + 3);
        assert_whole_pack(&stock);
    }
}
