//! The query, the referee, the table of a rule set and its crib: the
//! command line's answers over HTTP, and the reading of a request's cards,
//! house rules and options that every endpoint shares.

use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::Result;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use clap::{CommandFactory, Parser};

use prime_solve::report::json;
use prime_solve::{Budget, Hand, Rules, SolveError, Solver, Want, check};

use super::Shared;
use crate::cli::args::{HandArgs, RuleArgs, StepsArgs, StyleArgs, WaysArgs, WaysShown, parse_hand};
use crate::cli::{fold, hints};
use prime_solve::ways::Ways;

/// A request's query parameters, each named once: `powers=1&powers=0`
/// is refused, not read as the last.
pub(super) struct Params(pub(super) BTreeMap<String, String>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Params {
    type Rejection = Refusal;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Params, Refusal> {
        let Query(pairs) = Query::<Vec<(String, String)>>::from_request_parts(parts, state)
            .await
            .map_err(|e| Refusal::bad(format!("the query cannot be read: {e}")))?;
        let mut params = BTreeMap::new();
        for (key, value) in pairs {
            if params.contains_key(&key) {
                return Err(given_twice(&key));
            }
            params.insert(key, value);
        }
        Ok(Params(params))
    }
}

/// A parameter named twice, in a query or in a JSON body.
fn given_twice(key: &str) -> Refusal {
    Refusal::bad(format!(
        "`{}` is given twice: give it once",
        prime_solve::text::excerpt(key)
    ))
}

/// The house rules and the hand's options of a request, read by the
/// command line's own definitions: `faces=rank&powers=1` is `--faces rank
/// --powers`.
#[derive(Parser)]
#[command(name = "request", no_binary_name = true)]
pub(super) struct Options {
    #[command(flatten)]
    pub(super) rules: RuleArgs,
    #[command(flatten)]
    hand: HandArgs,
    #[command(flatten)]
    pub(super) style: StyleArgs,
    #[command(flatten)]
    steps: StepsArgs,
    #[command(flatten)]
    ways: WaysArgs,
}

/// A request refused: its status and the one line the command line would
/// print.
pub(super) struct Refusal {
    pub(super) status: StatusCode,
    pub(super) message: String,
}

impl Refusal {
    pub(super) fn bad(message: impl Into<String>) -> Refusal {
        Refusal {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// A library or command-line error in the command line's words, with
    /// its hint; a refusal for memory is 503, anything else the request's
    /// fault.
    pub(super) fn of(err: &anyhow::Error) -> Refusal {
        let memory = err.chain().any(|e| {
            e.downcast_ref::<SolveError>()
                .is_some_and(SolveError::is_memory)
                || matches!(
                    e.downcast_ref::<prime_solve::ways::WaysError>(),
                    Some(prime_solve::ways::WaysError::Solve(s)) if s.is_memory()
                )
        });
        if memory {
            return Refusal {
                status: StatusCode::SERVICE_UNAVAILABLE,
                message: format!(
                    "{err:#}; use fewer cards or house rules (the limit is this server's, for one request)"
                ),
            };
        }
        Refusal::bad(format!("{err:#}{}", hints::for_error(err)))
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        #[derive(serde::Serialize)]
        struct Error {
            error: String,
        }
        let body = serde_json::to_string(&Error {
            error: self.message,
        })
        .unwrap_or_else(|_| "{\"error\":\"\"}".into());
        json_response(self.status, body + "\n")
    }
}

pub(super) fn json_response(status: StatusCode, body: String) -> Response {
    let mut response = (status, body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// The options of a request (its house rules, the hand's and the
/// witnesses'): every parameter but `cards` and those in `skip`.
pub(super) fn read(params: &BTreeMap<String, String>, skip: &[&str]) -> Result<Options, Refusal> {
    let command = Options::command();
    let mut argv: Vec<String> = Vec::new();
    for (key, value) in params {
        if key == "cards" || skip.contains(&key.as_str()) {
            continue;
        }
        let Some(arg) = command
            .get_arguments()
            .find(|a| a.get_long() == Some(key.as_str()))
        else {
            return Err(Refusal::bad(format!(
                "unknown parameter `{}`",
                prime_solve::text::excerpt(key)
            )));
        };
        if arg.get_action().takes_values() {
            argv.push(format!("--{key}={value}"));
        } else {
            match value.as_str() {
                "" | "1" | "true" => argv.push(format!("--{key}")),
                "0" | "false" => {}
                _ => {
                    return Err(Refusal::bad(format!(
                        "`{key}` is on or off: give {key}=1 or {key}=0"
                    )));
                }
            }
        }
    }
    let options =
        Options::try_parse_from(argv).map_err(|e| Refusal::bad(fold(&e.render().to_string())))?;
    Ok(options)
}

/// The cards a request names: `4,6,8`, `QH+7C+JK`, `4 6 8`.
fn cards(params: &BTreeMap<String, String>) -> Result<Vec<String>, Refusal> {
    Ok(params
        .get("cards")
        .ok_or_else(|| Refusal::bad("no cards: give cards=4,6,8"))?
        .split([',', ' ', '+'])
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect())
}

/// How much a request may cost, and so where it runs.
#[derive(Clone, Copy)]
pub(super) enum Weight {
    /// A hand of three cards or fewer (at most milliseconds under any
    /// rules), or the referee: answered on the server's own threads.
    Tiny,
    /// A sweep of every three-card hand, or four cards under + − × ÷ and a
    /// ceiling: off the server's threads.
    Light,
    /// A search that may take seconds and gigabytes (five cards or more,
    /// or four under functions or with any prime): off the server's
    /// threads, in one of the places for heavy searches, counted against
    /// the share of the address that asks.
    Heavy(IpAddr),
}

/// Whether `rules` look for primes past the targeted search's ceiling
/// (any prime, or a ceiling so high it is the same search).
fn any_prime(rules: &Rules) -> bool {
    rules.max_prime.is_none_or(|p| p > 1000)
}

/// The weight of a search of `k` cards under `rules`, asked by `ip`.
pub(super) fn weigh(k: usize, rules: &Rules, ip: IpAddr) -> Weight {
    if k >= 5 || (k == 4 && (!rules.functions.is_empty() || any_prime(rules))) {
        Weight::Heavy(ip)
    } else if k <= 3 && rules.function_depth <= 1 && !any_prime(rules) {
        Weight::Tiny
    } else {
        Weight::Light
    }
}

/// The solvers set up for the rule sets asked about (the set-up of a rule
/// set is worked out once; each request gets its own tables and budget),
/// at most [`SOLVERS`] of them: past that the cache starts again, so
/// requests for ever new ceilings cannot grow it.
#[derive(Default)]
pub(super) struct Solvers(Mutex<HashMap<Rules, Arc<Solver>>>);

/// The most rule sets whose set-up is kept.
const SOLVERS: usize = 64;

impl Solvers {
    fn get(&self, rules: Rules, budget: Arc<Budget>) -> Result<Solver, prime_solve::RulesError> {
        let held = {
            let map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            map.get(&rules).cloned()
        };
        let set_up = match held {
            Some(s) => s,
            None => {
                let s = Arc::new(Solver::new(rules)?);
                let mut map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
                if map.len() >= SOLVERS {
                    map.clear();
                }
                map.insert(rules, Arc::clone(&s));
                s
            }
        };
        Ok(set_up.like(budget))
    }
}

/// What a request's work is given: its budget, and solvers charged to it.
pub(super) struct Job {
    pub(super) budget: Arc<Budget>,
    solvers: Arc<Solvers>,
}

impl Job {
    /// A solver for `rules`, charged to the request's budget.
    pub(super) fn solver(&self, rules: Rules) -> Result<Solver, prime_solve::RulesError> {
        self.solvers.get(rules, Arc::clone(&self.budget))
    }
}

/// Runs `work` within the request's budget and time limit: a tiny one at
/// once, others off the server's threads, a heavy one in one of the places
/// for heavy searches and counted against its address's share.
pub(super) async fn solve<T: Send + 'static>(
    shared: &Shared,
    weight: Weight,
    work: impl FnOnce(Job) -> Result<T, Refusal> + Send + 'static,
) -> Result<T, Refusal> {
    let busy = |message: &str| Refusal {
        status: StatusCode::TOO_MANY_REQUESTS,
        message: message.into(),
    };
    let too_long = || Refusal {
        status: StatusCode::SERVICE_UNAVAILABLE,
        message: format!(
            "the search takes longer than this server allows ({} s)",
            shared.time_limit.as_secs()
        ),
    };
    let budget = Budget::new(shared.request_memory);
    let job = Job {
        budget: Arc::clone(&budget),
        solvers: Arc::clone(&shared.solvers),
    };
    let deadline = tokio::time::Instant::now() + shared.time_limit;
    let place = match weight {
        Weight::Tiny => return work(job),
        // Light work waits its turn for one of a few places, within the
        // time limit: a flood of it cannot take every thread.
        Weight::Light => {
            tokio::time::timeout_at(deadline, Arc::clone(&shared.light).acquire_owned())
                .await
                .map_err(|_| too_long())?
                .map_err(|_| too_long())?
        }
        Weight::Heavy(ip) => {
            if !shared.shares.take(ip) {
                return Err(busy(
                    "this address has had its share of large searches for now: try again in a minute, or ask about three cards",
                ));
            }
            match Arc::clone(&shared.heavy).try_acquire_owned() {
                Ok(place) => place,
                Err(_) => {
                    // Not run: not counted against the share.
                    shared.shares.give_back(ip);
                    return Err(busy(
                        "the server is busy with other large searches: try again shortly",
                    ));
                }
            }
        }
    };
    let task = tokio::task::spawn_blocking(move || {
        let answer = work(job);
        drop(place);
        answer
    });
    match tokio::time::timeout_at(deadline, task).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(_)) => Err(Refusal {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "the search failed".into(),
        }),
        Err(_) => {
            // The search is stopped at its next charge: no budget left. Its
            // place is freed when it has stopped.
            budget.set_limit(0);
            Err(too_long())
        }
    }
}

/// `GET /api/v1/query?cards=...&<rules>`: what `query --format json` prints.
pub(super) async fn query(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Params(params): Params,
) -> Response {
    respond(answer_query(&shared, peer.ip(), &params).await)
}

async fn answer_query(
    shared: &Shared,
    ip: IpAddr,
    params: &BTreeMap<String, String>,
) -> Result<String, Refusal> {
    let (hand, rules, options) = hand_and_rules(params, &[])?;
    let style = options.style.style();
    let steps = options.steps.steps;
    let ways = options.ways.ways;
    // Counting the ways of four cards or more can take a second.
    let weight = match weigh(hand.len(), &rules, ip) {
        Weight::Tiny | Weight::Light if ways.is_some() && hand.len() >= 4 => Weight::Heavy(ip),
        w => w,
    };
    solve(shared, weight, move |job| {
        let run = || -> Result<String> {
            let solver = job.solver(rules)?;
            let answer = solver.query(hand, Want::Primes)?;
            let (primes, _room) = if steps {
                answer.written_with_steps(style, json::BYTES_PER_PRIME)?
            } else {
                answer.written(style, json::BYTES_PER_PRIME)?
            };
            let nearest = if primes.is_empty() {
                solver.nearest_above(hand)?
            } else {
                None
            };
            let Some(shown) = ways else {
                let q = json::query(&answer, &primes, style).with_nearest(nearest.as_ref(), style);
                return Ok(serde_json::to_string_pretty(&q)? + "\n");
            };
            let counted = Ways::of_answer(&answer, Arc::clone(&job.budget))?;
            let all = shown == WaysShown::All;
            let q = json::query_with_ways(&answer, &primes, &counted, all, style)
                .with_nearest(nearest.as_ref(), style);
            Ok(serde_json::to_string_pretty(&q)? + "\n")
        };
        run().map_err(|e| Refusal::of(&e))
    })
    .await
}

/// The house rules of a request that names no cards, and its options.
pub(super) fn read_rules(params: &BTreeMap<String, String>) -> Result<(Rules, Options), Refusal> {
    if params.contains_key("cards") {
        return Err(Refusal::bad(
            "this path takes no cards: every hand is in the answer",
        ));
    }
    let options = read(params, &[])?;
    let rules = options.rules.rules().map_err(|e| Refusal::of(&e))?;
    Ok((rules, options))
}

/// The hand and the house rules of a request, and its options.
pub(super) fn hand_and_rules(
    params: &BTreeMap<String, String>,
    skip: &[&str],
) -> Result<(Hand, Rules, Options), Refusal> {
    let cards = cards(params)?;
    let options = read(params, skip)?;
    let rules = options.rules.rules().map_err(|e| Refusal::of(&e))?;
    let hand = parse_hand(&cards, rules.faces, &options.hand).map_err(|e| Refusal::of(&e))?;
    Ok((hand, rules, options))
}

/// The weight of a sweep of every three-card hand: heavy under functions
/// with any prime, or nested functions (seconds), else light.
fn sweep_weight(rules: &Rules, ip: IpAddr) -> Weight {
    if !rules.functions.is_empty() && (any_prime(rules) || rules.function_depth > 1) {
        Weight::Heavy(ip)
    } else {
        Weight::Light
    }
}

/// `GET /api/v1/table?<rules>`: every three-card hand of the rule set with
/// each prime it makes and its simplest witness.
pub(super) async fn table(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Params(params): Params,
) -> Response {
    let answer = async {
        let (rules, options) = read_rules(&params)?;
        let style = options.style.style();
        let steps = options.steps.steps;
        let weight = sweep_weight(&rules, peer.ip());
        solve(&shared, weight, move |job| {
            let run = || -> Result<String> {
                let solver = job.solver(rules)?;
                let mut hands = Vec::new();
                for dealt in prime_solve::deal(3, rules.faces).0 {
                    let answer = solver.query(dealt.hand, Want::Primes)?;
                    let (primes, _room) = if steps {
                        answer.written_with_steps(style, json::BYTES_PER_PRIME)?
                    } else {
                        answer.written(style, json::BYTES_PER_PRIME)?
                    };
                    hands.push(json::TableEntry {
                        dealt,
                        primes,
                        simplest_prime: answer.simplest_prime(),
                    });
                }
                Ok(serde_json::to_string(&json::table(&rules, &hands, style))? + "\n")
            };
            run().map_err(|e| Refusal::of(&e))
        })
        .await
    };
    respond(answer.await)
}

/// `GET /api/v1/crib.pdf?<rules>`: the crib sheet `prime-solve crib`
/// writes, as PDF.
pub(super) async fn crib_pdf(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Params(params): Params,
) -> Response {
    let answer = async {
        let mut params = params;
        let paper = match params.remove("paper").as_deref() {
            None | Some("a4") => prime_solve::report::crib::Paper::A4,
            Some("letter") => prime_solve::report::crib::Paper::Letter,
            Some(_) => return Err(Refusal::bad("paper is a4 or letter")),
        };
        let (rules, _) = read_rules(&params)?;
        solve(&shared, sweep_weight(&rules, peer.ip()), move |job| {
            let run = || -> Result<Vec<u8>> {
                let a = prime_solve::analysis::analyze(rules, 3, &job.budget, &|_| {})?;
                let sheet = prime_solve::report::crib::layout(&a, paper, "prime-solve serve");
                Ok(prime_solve::report::pdf::render(&sheet))
            };
            run().map_err(|e| Refusal::of(&e))
        })
        .await
    };
    match answer.await {
        Ok(pdf) => {
            let mut response = (StatusCode::OK, pdf).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/pdf"),
            );
            response
        }
        Err(refusal) => refusal.into_response(),
    }
}

/// `GET /api/v1/check?cards=...&claim=...&<rules>`: what `check --format
/// json` prints.
pub(super) async fn check_get(
    State(shared): State<Arc<Shared>>,
    Params(params): Params,
) -> Response {
    respond(answer_check(&shared, &params).await)
}

/// `POST /api/v1/check` with `{"cards": "4 6 8", "claim": "(6*4)/8", ...}`.
pub(super) async fn check_post(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    match flat(&body) {
        Ok(params) => respond(answer_check(&shared, &params).await),
        Err(refusal) => refusal.into_response(),
    }
}

/// A JSON body's parameters as a query's: strings as they are, `true` as
/// `1`, a list joined by commas (`"functions": ["tri", "sqrt"]`).
/// A key given twice is refused, as in a query.
pub(super) fn flat(body: &[u8]) -> Result<BTreeMap<String, String>, Refusal> {
    let params = match serde_json::from_slice(body) {
        Ok(Object::Entries(params)) => params,
        Ok(Object::Twice(key)) => return Err(given_twice(&key)),
        Err(e) => return Err(Refusal::bad(format!("the body is not a JSON object: {e}"))),
    };
    let mut flat = BTreeMap::new();
    for (key, value) in params {
        let text = match value {
            serde_json::Value::String(s) => s,
            serde_json::Value::Bool(b) => b.to_string(),
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::Array(items) => items
                .iter()
                .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(","),
            _ => {
                return Err(Refusal::bad(format!(
                    "`{}` must be a string, a number, true/false or a list of them",
                    prime_solve::text::excerpt(&key)
                )));
            }
        };
        flat.insert(key, text);
    }
    Ok(flat)
}

/// A JSON object's entries, or the first key it gives twice (serde_json's
/// own map would keep the last of a repeated key).
enum Object {
    Entries(BTreeMap<String, serde_json::Value>),
    Twice(String),
}

impl<'de> serde::Deserialize<'de> for Object {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Object, D::Error> {
        struct Keys;
        impl<'de> serde::de::Visitor<'de> for Keys {
            type Value = Object;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Object, A::Error> {
                use serde::de::IgnoredAny;
                let mut entries = BTreeMap::new();
                while let Some((key, value)) = map.next_entry::<String, serde_json::Value>()? {
                    if entries.contains_key(&key) {
                        // The rest is read (and must be JSON) all the same.
                        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                        return Ok(Object::Twice(key));
                    }
                    entries.insert(key, value);
                }
                Ok(Object::Entries(entries))
            }
        }
        d.deserialize_map(Keys)
    }
}

pub(super) fn respond(result: Result<String, Refusal>) -> Response {
    match result {
        Ok(body) => json_response(StatusCode::OK, body),
        Err(refusal) => refusal.into_response(),
    }
}

async fn answer_check(
    shared: &Shared,
    params: &BTreeMap<String, String>,
) -> Result<String, Refusal> {
    let claim = params
        .get("claim")
        .cloned()
        .ok_or_else(|| Refusal::bad("no claim: give claim=(6*4)/8"))?;
    let (hand, rules, _) = hand_and_rules(params, &["claim"])?;
    solve(shared, Weight::Tiny, move |_| {
        let verdict = check(hand, &claim, &rules);
        let object = json::check(hand, &rules, &claim, &verdict, |f| {
            format!("{f}{}", hints::for_fault(f))
        });
        serde_json::to_string_pretty(&object)
            .map(|text| crate::cli::check::json_escaped(&text) + "\n")
            .map_err(|e| Refusal::bad(e.to_string()))
    })
    .await
}
