use prime_solve::*;
use std::time::Instant;
fn main() {
    let all = Rules { powers: true, juxtapose: true, functions: Functions::ALL, max_prime: None, ..Rules::default() };
    let s = Solver::new(all).unwrap();
    let t = Instant::now();
    let sol = s.solve(Hand::from_values(&[5, 6, 8]));
    println!("3-card all rules: {:?}, {} values, {} primes", t.elapsed(), sol.values().unwrap().len(), sol.primes().len());
    for v in [2i128, 3, 97] { if let Some(w) = sol.witness(v) { println!("{v} = {}", w.render(false)); } }
    let base = Rules { faces: Faces::Rank, ..Rules::default() };
    let s = Solver::new(base).unwrap();
    let t = Instant::now();
    let sol = s.solve(Hand::from_values(&[3, 5, 7, 9, 11, 13]));
    println!("6-card base: {:?}, {} values, {} primes", t.elapsed(), sol.values().unwrap().len(), sol.primes().len());
    let t = Instant::now();
    let sol2 = s.solve_primes(Hand::from_values(&[3, 5, 7, 9, 11, 13]));
    println!("6-card base targeted: {:?}, {} primes", t.elapsed(), sol2.primes().len());
    for p in sol.primes() { assert_eq!(sol.witness(p), sol2.witness(p), "{p}"); }
    let sol = s.solve(Hand::from_values(&[4, 6, 8]));
    for p in sol.primes() { println!("{p} = {}", sol.witness(p).unwrap().render(false)); }
    // sweep
    let mut hands = vec![];
    for a in 1..=13u8 { for b in a..=13 { for c in b..=13 { for d in c..=13 { for e in d..=13 { for f in e..=13 {
        hands.push(Hand::from_values(&[a,b,c,d,e,f])); }}}}}}
    let mut s = Solver::new(base).unwrap();
    let t = Instant::now();
    s.prepare(&hands);
    println!("prepare {} hands: {:?}", hands.len(), t.elapsed());
    let t = Instant::now();
    use rayon::prelude::*;
    let fails: usize = hands.par_iter().map(|&h| s.solve_primes(h).primes().is_empty() as usize).sum();
    println!("top targeted: {:?}, fails {fails}", t.elapsed());
}
