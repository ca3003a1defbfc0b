//! Property tests: parsers never panic or overflow the stack, whatever the
//! claim's length or nesting; printed witnesses read back.

use proptest::prelude::*;

use prime_solve::is_prime;
use prime_solve::text::needs_escape;
use prime_solve::{BinOp, Eval, Expr};
use prime_solve::{Card, Faces, Fault, Functions, Hand, Rules, Solver, Style, check};
use prime_solve::{Claim, MAX_CLAIM_DEPTH};

/// Every house rule on, so that the referee gets past its early checks.
fn all_rules() -> Rules {
    Rules {
        powers: true,
        juxtapose: true,
        functions: Functions::ALL,
        function_depth: 3,
        max_prime: None,
        ..Rules::default()
    }
}

/// What must hold of any verdict on any claim: a valid claim is a prime; a
/// parse error points inside the claim (or just past its end); a fault is
/// one line with no control character in it.
fn verdict_is_sound(hand: Hand, claim: &str, rules: &Rules) -> Result<(), TestCaseError> {
    match check(hand, claim, rules) {
        Ok(p) => prop_assert!(is_prime(p), "{claim:?} = {p}"),
        Err(fault) => {
            if let Fault::Parse(err) = &fault {
                prop_assert!(
                    (1..=claim.chars().count() + 1).contains(&err.column),
                    "{claim:?}: {err}"
                );
            }
            let text = fault.to_string();
            prop_assert!(!text.chars().any(needs_escape), "{claim:?}: {text:?}");
        }
    }
    Ok(())
}

/// Claims built from a grammar, nested up to `depth` and sometimes beyond
/// the parser's bound: brackets of both kinds, functions, powers, chains.
fn nested_claim(depth: u32) -> impl Strategy<Value = String> {
    let leaf = prop_oneof!["[1-9]", "1[0-3]", "[0-9]{2,5}"];
    leaf.prop_recursive(depth, depth * 4, 3, |inner| {
        prop_oneof![
            (inner.clone(), "[-+*/x×÷^−]|\\*\\*", inner.clone())
                .prop_map(|(a, op, b)| format!("{a} {op} {b}")),
            inner.clone().prop_map(|a| format!("({a})")),
            inner.clone().prop_map(|a| format!("[{a}]")),
            (inner.clone(), "T|tri|fact|sqrt|√").prop_map(|(a, f)| format!("{f}({a})")),
            inner.clone().prop_map(|a| format!("√{a}")),
            inner.clone().prop_map(|a| format!("{a}!")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("root({a}, {b})")),
        ]
    })
}

/// A small claim wrapped in `count` copies of an opener (and maybe its
/// closers): the hostile shapes of the issue at random lengths.
fn deep_claim() -> impl Strategy<Value = String> {
    let opener = prop_oneof![
        Just("("),
        Just("["),
        Just("T("),
        Just("√"),
        Just("1+("),
        Just("2^"),
        Just("2**"),
        Just("root("),
        Just("fact["),
        Just("1+"),
    ];
    let count = prop_oneof![0..MAX_CLAIM_DEPTH * 2, 0..20_000usize];
    (
        opener,
        count,
        "[0-9+*/()!√ -]{1,6}",
        any::<bool>(),
        "[!)\\]]{0,3}",
    )
        .prop_map(|(opener, count, middle, close, tail)| {
            let mut claim = opener.repeat(count);
            claim.push_str(&middle);
            if close {
                let closer: String = opener
                    .chars()
                    .filter_map(|c| match c {
                        '(' => Some(')'),
                        '[' => Some(']'),
                        _ => None,
                    })
                    .collect();
                claim.push_str(&closer.repeat(count));
            }
            claim.push_str(&tail);
            claim
        })
}

proptest! {
    #[test]
    fn card_tokens_never_panic(token in "\\PC{0,6}") {
        if let Ok(card) = Card::parse(&token) {
            for faces in Faces::ALL {
                let _ = card.value(faces);
            }
        } else if let Err(err) = Card::parse(&token) {
            let text = err.to_string();
            prop_assert!(!text.chars().any(needs_escape), "{text:?}");
        }
    }

    #[test]
    fn any_card_text_is_read_or_named_cleanly(token in "\\PC{0,6}|[\\x00-\\x1f\\x7f-\\u{9f}a-z0-9*]{0,8}") {
        if let Err(err) = Card::parse(&token) {
            let text = err.to_string();
            prop_assert!(!text.chars().any(needs_escape), "{text:?}");
        }
    }

    #[test]
    fn claims_never_panic(claim in "[0-9+*/x×÷^!()\\[\\]√,. \t\nTtrootsqfaciJK-]{0,24}") {
        verdict_is_sound(Hand::from_values(&[4, 6, 8]), &claim, &all_rules())?;
    }

    #[test]
    fn arbitrary_text_never_panics(claim in "\\PC{0,30}|[\\x00-\\u{a0}]{0,30}") {
        verdict_is_sound(Hand::from_values(&[1, 13, 7]), &claim, &Rules::default())?;
    }

    #[test]
    fn long_claims_never_panic(claim in "[0-9+*/x×÷^!()\\[\\]√,. TtrootsqfaciJK-]{100,3000}") {
        verdict_is_sound(Hand::from_values(&[2, 3, 4, 5]), &claim, &all_rules())?;
    }

    #[test]
    fn nested_claims_never_panic(claim in nested_claim(40)) {
        verdict_is_sound(Hand::from_values(&[1, 2, 3]), &claim, &all_rules())?;
    }

    #[test]
    fn deep_claims_parse_or_name_their_column(claim in deep_claim()) {
        verdict_is_sound(Hand::from_values(&[1, 2, 3]), &claim, &all_rules())?;
    }

    #[test]
    fn witnesses_read_back_to_their_value(
        cards in proptest::collection::vec(1u8..=13, 3..=4),
        powers: bool,
        juxtapose: bool,
        tri: bool,
        ascii: bool,
    ) {
        let rules = Rules {
            faces: Faces::Rank,
            powers,
            juxtapose,
            functions: Functions { tri, ..Functions::NONE },
            max_prime: None,
            ..Rules::default()
        };
        let solver = Solver::new(rules).unwrap();
        let hand = Hand::from_values(&cards);
        let solution = solver.solve(hand).unwrap();
        for p in solution.primes().into_iter().take(40) {
            let witness = solution.witness(p).unwrap();
            prop_assert_eq!(witness.cards(), hand.values());
            let text = witness.render(Style { ascii, ..Style::default() });
            prop_assert_eq!(check(hand, &text, &rules), Ok(p), "{}", text);
        }
    }
}

/// Expression trees of + − × ÷ and ^ over cards 1 to 13, up to about six
/// cards.
fn expression() -> impl Strategy<Value = Expr> {
    let leaf = (1u8..=13).prop_map(Expr::Card);
    leaf.prop_recursive(4, 6, 2, |inner| {
        (
            proptest::sample::select(vec![
                BinOp::Add,
                BinOp::Sub,
                BinOp::Mul,
                BinOp::Div,
                BinOp::Pow,
            ]),
            inner.clone(),
            inner,
        )
            .prop_map(|(op, a, b)| Expr::Binary(op, Box::new(a), Box::new(b)))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// An expression as shown (docs/rules.md §5.2) has the value of the
    /// expression, the same cards, every step within any bound the
    /// expression keeps to, is upheld by the referee, and is shown as it
    /// stands.
    #[test]
    fn an_expression_shown_keeps_its_value_and_bound(e in expression(), slack in 0u64..40) {
        let Eval::Exact(v) = e.eval(u64::MAX) else { return Ok(()) };
        // The least bound the expression keeps to, found by halving, and
        // a little above it.
        let (mut lo, mut hi) = (0u64, u64::MAX);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if matches!(e.eval(mid), Eval::Exact(_)) { hi = mid } else { lo = mid + 1 }
        }
        let bound = lo.saturating_add(slack).max(13);
        let shown = e.shown(bound);
        prop_assert_eq!(shown.eval(bound), Eval::Exact(v));
        prop_assert_eq!(shown.cards(), e.cards());
        prop_assert_eq!(shown.shown(bound), shown.clone());
        let rules = Rules { faces: Faces::Rank, powers: true, max_prime: None, max_value: bound, ..Rules::default() };
        let cards = e.cards();
        if (3..=6).contains(&cards.len()) && is_prime(v) {
            let hand = Hand::from_values(&cards);
            for ascii in [false, true] {
                let text = shown.render(Style { ascii, ..Style::default() });
                prop_assert_eq!(check(hand, &text, &rules), Ok(v), "{}", text);
            }
        }
    }
}

/// The shapes of the issue, about `chars` characters each.
fn hostile_claims(chars: usize) -> Vec<(&'static str, String)> {
    // `count` openers and as many closers.
    let nest = |open: &str, inner: &str, close: &str| {
        let count = chars / (open.chars().count() + close.chars().count()).max(1);
        format!("{}{inner}{}", open.repeat(count), close.repeat(count))
    };
    let chain = |unit: &str, first: &str| format!("{first}{}", unit.repeat(chars / unit.len()));
    vec![
        ("(", nest("(", "1", ")")),
        ("unclosed (", nest("(", "", "")),
        ("[", nest("[", "1", "]")),
        ("T(", nest("T(", "1", ")")),
        ("root(", nest("root(", "1", ",2)")),
        ("1+(", nest("1+(", "1", ")")),
        ("√", nest("√", "9", "")),
        ("!", nest("", "3", "!")),
        ("^", chain("^2", "2")),
        ("**", chain("**2", "2")),
        ("+", chain("+1", "1")),
    ]
}

/// Runs `f` on a thread with a 256 KiB stack, as a small embedded target or
/// a worker thread might have.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn hostile_claims_are_parse_errors_on_a_small_stack() {
    on_small_stack(|| {
        for (shape, claim) in hostile_claims(100_000) {
            // The referee reads no claim this long; its parser, behind
            // the cap, still ends at its depth bound.
            let verdict = check(Hand::from_values(&[4, 6, 8]), &claim, &all_rules());
            assert_eq!(verdict, Err(Fault::TooLong), "{shape}");
            let Err(err) = Claim::parse(&claim) else {
                panic!("{shape}: parsed");
            };
            assert!(err.message.contains("more than 200 deep"), "{shape}: {err}");
        }
    });
}

#[test]
fn claims_at_the_depth_bound_are_ruled_on_a_small_stack() {
    // The deepest claim of each shape that still parses is evaluated,
    // checked and dropped: every recursion over the tree at its tallest.
    on_small_stack(|| {
        let rules = all_rules();
        let claim = |shape: &str, chars: usize| {
            let mut all = hostile_claims(chars).into_iter();
            all.find(|s| s.0 == shape).unwrap().1
        };
        for (shape, _) in hostile_claims(0) {
            if shape == "unclosed (" {
                continue;
            }
            // The longest claim of this shape that parses: nesting is
            // monotone in the length, so a binary search finds it.
            let (mut ok, mut too_deep) = (1, 20 * MAX_CLAIM_DEPTH);
            assert!(Claim::parse(&claim(shape, ok)).is_ok(), "{shape}");
            let err = Claim::parse(&claim(shape, too_deep)).unwrap_err();
            assert!(err.message.contains("more than 200 deep"), "{shape}: {err}");
            while too_deep - ok > 1 {
                let mid = (ok + too_deep) / 2;
                match Claim::parse(&claim(shape, mid)) {
                    Ok(_) => ok = mid,
                    Err(_) => too_deep = mid,
                }
            }
            let deepest = claim(shape, ok);
            let next = Claim::parse(&claim(shape, too_deep)).unwrap_err();
            assert!(
                next.message.contains("more than 200 deep"),
                "{shape}: {next}"
            );
            // Its own numbers as the hand where they can be one, so that
            // the referee gets past the cards and evaluates the whole tree.
            let numbers: Vec<u8> = Claim::parse(&deepest)
                .unwrap()
                .numbers()
                .iter()
                .filter_map(|&(v, _)| u8::try_from(v).ok().filter(|v| (1..=13).contains(v)))
                .collect();
            let hand = if numbers.len() <= 6 {
                numbers
            } else {
                vec![4, 6, 8]
            };
            let verdict = check(Hand::from_values(&hand), &deepest, &rules);
            assert!(
                !matches!(verdict, Err(Fault::Parse(_))),
                "{shape}: {verdict:?}"
            );
        }
    });
}

proptest! {
    /// The rooms' message decoder on any text: a message or a refusal,
    /// never a panic; a message it reads carries a claim within the cap.
    #[test]
    fn a_rooms_message_decoder_takes_any_text(text in ".{0,300}", json_like in r#"\{"type":"(call|pass|next|start|ping|x)"(,"turn":[0-9]{1,3})?(,"claim":"[^"]{0,400}")?\}"#) {
        for t in [&text, &json_like] {
            if let Ok(prime_solve::room::ClientMessage::Call { claim, .. }) = prime_solve::room::decode(t) {
                prop_assert!(claim.len() <= prime_solve::MAX_CLAIM);
            }
        }
    }
}

mod live_game {
    use std::sync::OnceLock;

    use proptest::prelude::*;

    use prime_solve::game::{
        CallBook, Duel, Ending, Ends, Event, Game, Live, Model, Multi, Person, Refused, Setup,
        Stage, Timing, leader,
    };
    use prime_solve::{Budget, Faces, Rng, Rules, Solver, Style, Want};

    /// The call books of three or more players and of two, built once.
    fn books() -> &'static (CallBook, CallBook) {
        static BOOKS: OnceLock<(CallBook, CallBook)> = OnceLock::new();
        BOOKS.get_or_init(|| {
            let budget = Budget::unlimited();
            (
                CallBook::new(Rules::default(), &[2, 3, 4], &budget).unwrap(),
                CallBook::new(Rules::default(), &[3], &budget).unwrap(),
            )
        })
    }

    /// What a person does on a combination.
    #[derive(Clone, Copy, Debug)]
    enum Act {
        Valid,
        Slip,
        Wrong,
        Pass,
        Late,
        Twice,
        Nothing,
    }

    fn act() -> impl Strategy<Value = Act> {
        prop_oneof![
            Just(Act::Valid),
            Just(Act::Slip),
            Just(Act::Wrong),
            Just(Act::Pass),
            Just(Act::Late),
            Just(Act::Twice),
            Just(Act::Nothing),
        ]
    }

    /// Every card is somewhere: the players' (piles and table) and the
    /// stockpile's.
    fn all_cards(live: &Live) -> usize {
        live.held().iter().sum::<usize>() + live.stock().unwrap_or(0)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// The live game on random deals and random scripts of the
        /// people's calls (valid, slips, wrong, passes, late, twice):
        /// 54 cards at every step; a slip never bars a seat and a wrong
        /// call always does; a call for a turn that is over is too late;
        /// and every end names its winner by the one rule.
        #[test]
        fn the_live_game_keeps_its_rules(
            seed in any::<u64>(),
            seats in 2usize..5,
            both in any::<bool>(),
            max_turns in 1u32..80,
            target in prop::option::of(20usize..40),
            script in prop::collection::vec((0u32..3000, act(), act()), 80),
        ) {
            let (book, duel_book) = books();
            let two = seats == 2;
            let models = vec![Model::CLUB; seats];
            let setup = Setup::new(if two { duel_book } else { book }, models, Faces::Five, Timing::default());
            let mut rng = Rng::new(seed);
            let game: Box<dyn Game> = if two {
                Box::new(Duel::deal(&mut rng))
            } else {
                Box::new(Multi::deal(seats, &mut rng))
            };
            let people: Vec<usize> = if both { vec![0, 1] } else { vec![0] };
            let solver = Solver::new(Rules::default()).unwrap();
            let mut live = Live::new(setup, game, rng, Rules::default(), 30_000)
                .with_people(&people)
                .with_ends(Ends { max_turns, target, ..Ends::default() });
            let mut last_won = None;
            let mut steps = script.iter();
            while live.stage() != Stage::Over {
                let mut said = live.deal();
                prop_assert_eq!(all_cards(&live), 54);
                if live.stage() != Stage::Calling {
                    break;
                }
                let turn = live.turn();
                let round = live.round().unwrap().clone();
                let &(ms, first, second) = steps.next().unwrap_or(&(0, Act::Nothing, Act::Nothing));
                for (&seat, act) in people.iter().zip([first, second]) {
                    if round.person(seat) != Some(&Person::Waiting) {
                        continue;
                    }
                    let hand = round.hand.unwrap();
                    let values: Vec<String> = hand.values().iter().map(u8::to_string).collect();
                    let best = solver
                        .query(hand, Want::Primes)
                        .ok()
                        .and_then(|a| a.primes().last().map(|&p| a.witness(p).unwrap().render(Style::ASCII)));
                    let wrong = format!("{}+{}", values[0], values.join("+"));
                    let claim = match act {
                        Act::Valid | Act::Twice => best.clone().unwrap_or_else(|| wrong.clone()),
                        Act::Slip => "1*3*4+0".into(),
                        Act::Wrong => wrong.clone(),
                        Act::Late => {
                            let late = live.call(seat, turn - 1, ms, "1+2");
                            prop_assert_eq!(late, Err(Refused::TooLate { turn: turn - 1 }));
                            continue;
                        }
                        Act::Pass => {
                            if let Ok(events) = live.pass(seat, turn, ms) {
                                said.extend(events);
                            }
                            continue;
                        }
                        Act::Nothing => continue,
                    };
                    let Ok(events) = live.call(seat, turn, ms, &claim) else {
                        // Closed already: the bots' valid call and window
                        // came first.
                        prop_assert!(ms > live.closes_at() || live.stage() != Stage::Calling);
                        continue;
                    };
                    let waiting = live.round().and_then(|r| r.person(seat).cloned());
                    // A number that is no card is a slip; a card used
                    // twice, a wrong call.
                    match act {
                        Act::Slip => prop_assert!(matches!(events.last(), Some(Event::NotACall { .. })), "{:?}", events),
                        Act::Wrong => prop_assert!(matches!(events.last(), Some(Event::Ruled { valid: false, .. })), "{:?}", events),
                        _ => {}
                    }
                    match events.last() {
                        Some(Event::NotACall { why, .. }) => {
                            prop_assert!(why.is_slip());
                            prop_assert_eq!(waiting, Some(Person::Waiting), "a slip bars nobody");
                        }
                        Some(Event::Ruled { valid, fault, .. }) => {
                            prop_assert!(fault.as_ref().is_none_or(|f| !f.is_slip()));
                            prop_assert!(!matches!(waiting, Some(Person::Waiting)), "a call is made once");
                            if !valid || matches!(act, Act::Twice) {
                                let again = live.call(seat, turn, ms, &claim);
                                prop_assert!(matches!(again, Err(Refused::Done | Refused::TooLate { .. })), "{:?}", again);
                            }
                        }
                        other => prop_assert!(false, "{:?}", other),
                    }
                    said.extend(events);
                }
                said.extend(live.tick(u32::MAX));
                prop_assert_eq!(all_cards(&live), 54);
                for e in &said {
                    if let Event::Won { seat, .. } = e {
                        last_won = Some(*seat);
                    }
                }
                prop_assert_eq!(live.call(0, turn, 0, "1+2"), Err(Refused::TooLate { turn }));
            }
            let over = live.over().unwrap().clone();
            prop_assert_eq!(over.held.iter().sum::<usize>() + over.stock.unwrap_or(0), 54);
            match over.ending {
                Ending::Rules(_) => {
                    let w = over.winner.expect("the rules' end has a winner");
                    prop_assert!(over.held[w] > 0);
                }
                _ => prop_assert_eq!(over.winner, leader(&over.held, last_won)),
            }
            if over.ending == Ending::Target {
                prop_assert!(over.held.iter().any(|&h| h >= target.unwrap()));
            }
            prop_assert!(over.turns <= max_turns);
        }
    }
}
