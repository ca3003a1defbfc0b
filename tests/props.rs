//! Property tests: parsers never panic, printed witnesses read back.

use proptest::prelude::*;

use prime_solve::claim::Claim;
use prime_solve::{Card, Faces, Functions, Hand, Rules, Solver, check};

proptest! {
    #[test]
    fn card_tokens_never_panic(token in "\\PC{0,6}") {
        if let Ok(card) = Card::parse(&token) {
            for faces in Faces::ALL {
                let _ = card.value(faces);
            }
        }
    }

    #[test]
    fn claims_never_panic(claim in "[0-9+*/x×÷^!()√,. TtrootsqfaciJK-]{0,24}") {
        let _ = Claim::parse(&claim);
        let _ = check(Hand::from_values(&[4, 6, 8]), &claim, &Rules {
            powers: true, juxtapose: true, functions: Functions::ALL, ..Rules::default()
        });
    }

    #[test]
    fn arbitrary_text_never_panics(claim in "\\PC{0,30}") {
        let _ = check(Hand::from_values(&[1, 13, 7]), &claim, &Rules::default());
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
            let text = witness.render(ascii);
            prop_assert_eq!(check(hand, &text, &rules), Ok(p), "{}", text);
        }
    }
}
