//! The query, the referee, the table of a rule set and its crib: the
//! command line's answers over HTTP, each request read by the library
//! (`prime_solve::request`) and refused in its plain words.

use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::Result;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use prime_solve::report::json;
use prime_solve::request::{self, Read, Request, RequestError};
use prime_solve::ways::{Shown, Ways};
use prime_solve::{Budget, Fault, Hint, Rules, SolveError, Solver, Want, check};

use super::Shared;

/// A request's query string, read by the library: each parameter named
/// once (`powers=1&powers=0` is refused, not read as the last).
pub(super) struct Asked(pub(super) Request);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Asked {
    type Rejection = Refusal;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Asked, Refusal> {
        let Query(Read(read)) = Query::<Read>::from_request_parts(parts, state)
            .await
            .map_err(|e| Refusal::bad(format!("the query cannot be read: {e}")))?;
        Ok(Asked(read?))
    }
}

/// A JSON body's parameters, read by the library as a query's are.
pub(super) fn from_body(body: &[u8]) -> Result<Request, Refusal> {
    match serde_json::from_slice::<Read>(body) {
        Ok(Read(read)) => Ok(read?),
        Err(e) => Err(not_an_object(&e)),
    }
}

fn not_an_object(e: &serde_json::Error) -> Refusal {
    Refusal::bad(format!("the body is not a JSON object: {e}"))
}

/// A query string's parameters by name, each named once, for an endpoint
/// whose parameters are its own (a room's).
pub(super) struct Params(pub(super) BTreeMap<String, String>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Params {
    type Rejection = Refusal;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Params, Refusal> {
        let Query(request::Params(params)) =
            Query::<request::Params>::from_request_parts(parts, state)
                .await
                .map_err(|e| Refusal::bad(format!("the query cannot be read: {e}")))?;
        Ok(Params(params?))
    }
}

/// A JSON body's parameters by name, each named once, as a query's are.
pub(super) fn flat(body: &[u8]) -> Result<BTreeMap<String, String>, Refusal> {
    match serde_json::from_slice::<request::Params>(body) {
        Ok(request::Params(params)) => Ok(params?),
        Err(e) => Err(not_an_object(&e)),
    }
}

/// The house rules among `params`, every other parameter one of `own`
/// (or `cards`, which a request for rules alone leaves aside).
pub(super) fn rules_among(
    params: &BTreeMap<String, String>,
    own: &[&str],
) -> Result<Rules, Refusal> {
    let rest = params
        .iter()
        .filter(|(key, _)| *key != "cards" && !own.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    let request = Request::from_params(rest)?;
    request.done()?;
    Ok(request.rules)
}

/// A request refused: its status and the one line that says why.
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

    /// A library error in its words, with its hint in plain words; a
    /// refusal for memory is 503, anything else the request's fault.
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
        let hint = err.chain().find_map(Hint::of);
        Refusal::bad(format!("{err:#}{}", plain(hint)))
    }
}

/// A request the library could not read: its words and its hint.
impl From<RequestError> for Refusal {
    fn from(err: RequestError) -> Refusal {
        Refusal::bad(format!("{err}{}", plain(Hint::for_error(&err))))
    }
}

/// A hint in plain words, or nothing.
fn plain(hint: Option<Hint>) -> String {
    hint.map(|h| h.to_string()).unwrap_or_default()
}

/// A referee's fault and its hint, in plain words.
pub(super) fn fault_words(fault: &Fault) -> String {
    format!("{fault}{}", plain(Hint::for_fault(fault)))
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let body = serde_json::to_string(&json::error(&self.message))
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
    Asked(request): Asked,
) -> Response {
    respond(answer_query(&shared, peer.ip(), &request).await)
}

async fn answer_query(shared: &Shared, ip: IpAddr, request: &Request) -> Result<String, Refusal> {
    request.done()?;
    let (cards, hand) = request.hand()?;
    let (rules, style, steps, ways) = (request.rules, request.style, request.steps, request.ways);
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
                let q = json::query(&answer, &cards, &primes, style)
                    .with_nearest(nearest.as_ref(), style);
                return Ok(serde_json::to_string_pretty(&q)? + "\n");
            };
            let counted = Ways::of_answer(&answer, Arc::clone(&job.budget))?;
            let all = shown == Shown::All;
            let q = json::query_with_ways(&answer, &cards, &primes, &counted, all, style)
                .with_nearest(nearest.as_ref(), style);
            Ok(serde_json::to_string_pretty(&q)? + "\n")
        };
        run().map_err(|e| Refusal::of(&e))
    })
    .await
}

/// A request for a whole rule set, which names no cards, once its
/// endpoint has taken its own parameters.
fn no_cards(request: &Request) -> Result<(), Refusal> {
    if request.cards.is_some() {
        return Err(Refusal::bad(
            "this path takes no cards: every hand is in the answer",
        ));
    }
    Ok(request.done()?)
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
    Asked(request): Asked,
) -> Response {
    let answer = async {
        no_cards(&request)?;
        let (rules, style, steps) = (request.rules, request.style, request.steps);
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
    Asked(mut request): Asked,
) -> Response {
    let answer = async {
        let paper = match request.take("paper").as_deref() {
            None | Some("a4") => prime_solve::report::crib::Paper::A4,
            Some("letter") => prime_solve::report::crib::Paper::Letter,
            Some(_) => return Err(Refusal::bad("paper is a4 or letter")),
        };
        no_cards(&request)?;
        let rules = request.rules;
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
/// json` prints, its hint in plain words.
pub(super) async fn check_get(
    State(shared): State<Arc<Shared>>,
    Asked(request): Asked,
) -> Response {
    respond(answer_check(&shared, request).await)
}

/// `POST /api/v1/check` with `{"cards": "4 6 8", "claim": "(6*4)/8", ...}`.
pub(super) async fn check_post(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    match from_body(&body) {
        Ok(request) => respond(answer_check(&shared, request).await),
        Err(refusal) => refusal.into_response(),
    }
}

pub(super) fn respond(result: Result<String, Refusal>) -> Response {
    match result {
        Ok(body) => json_response(StatusCode::OK, body),
        Err(refusal) => refusal.into_response(),
    }
}

async fn answer_check(shared: &Shared, mut request: Request) -> Result<String, Refusal> {
    let claim = request
        .take("claim")
        .ok_or_else(|| Refusal::bad("no claim: give claim=(6*4)/8"))?;
    request.done()?;
    let (_, hand) = request.hand()?;
    let rules = request.rules;
    solve(shared, Weight::Tiny, move |_| {
        let verdict = check(hand, &claim, &rules);
        let object = json::check(hand, &rules, &claim, &verdict, fault_words);
        serde_json::to_string_pretty(&object)
            .map(|text| json::escaped(&text) + "\n")
            .map_err(|e| Refusal::bad(e.to_string()))
    })
    .await
}
