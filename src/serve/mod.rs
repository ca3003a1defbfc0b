//! `prime-solve serve`: the JSON API over HTTP (and the crib as PDF). Every answer comes from the
//! library's own entry points (`Hand::parse`, `Solver::query`, `check`, the
//! JSON renderers) with the command line's own reading of cards, house
//! rules and hints, so the server says exactly what the command says. Each
//! request has its own memory budget and time limit; heavy searches take
//! one of a few places, so that they cannot starve the light ones.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use clap::{CommandFactory, Parser};
use tokio::sync::Semaphore;
use tower_http::limit::RequestBodyLimitLayer;

use prime_solve::report::json;
use prime_solve::{Budget, Hand, Rules, SolveError, Solver, Want, check};

use crate::cli::args::{HandArgs, RuleArgs, ServeArgs, StyleArgs, parse_hand};
use crate::cli::{Verdict, fold, hints};

/// The largest request body read (a claim and its house rules).
const MAX_BODY: usize = 16 << 10;

/// The page, embedded in the binary: nothing to deploy, no request that
/// leaves the machine.
const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// Scripts and styles from the server alone, none inline.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; \
                   connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// One of the page's files, with the policy that forbids inline scripts.
fn asset(body: &'static str, kind: &'static str) -> Response {
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// What every request shares: its limits, and the places for heavy ones.
struct Shared {
    request_memory: u64,
    time_limit: Duration,
    heavy: Arc<Semaphore>,
}

/// The house rules and the hand's options of a request, read by the
/// command line's own definitions: `faces=rank&powers=1` is `--faces rank
/// --powers`.
#[derive(Parser)]
#[command(name = "request", no_binary_name = true)]
struct Options {
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    hand: HandArgs,
    #[command(flatten)]
    style: StyleArgs,
}

/// A request refused: its status and the one line the command line would
/// print.
struct Refusal {
    status: StatusCode,
    message: String,
}

impl Refusal {
    fn bad(message: impl Into<String>) -> Refusal {
        Refusal {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// A library or command-line error in the command line's words, with
    /// its hint; a refusal for memory is 503, anything else the request's
    /// fault.
    fn of(err: &anyhow::Error) -> Refusal {
        let memory = err.chain().any(|e| {
            e.downcast_ref::<SolveError>()
                .is_some_and(SolveError::is_memory)
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

fn json_response(status: StatusCode, body: String) -> Response {
    let mut response = (status, body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// Serves until Ctrl-C or SIGTERM, then lets the requests in flight finish.
pub(crate) fn run(args: &ServeArgs) -> Result<Verdict> {
    let shared = Arc::new(Shared {
        request_memory: args.request_memory,
        time_limit: Duration::from_secs(args.time_limit),
        heavy: Arc::new(Semaphore::new(usize::try_from(args.heavy).unwrap_or(1))),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(serve(args.addr, shared))?;
    Ok(Verdict::Yes)
}

async fn serve(addr: SocketAddr, shared: Arc<Shared>) -> Result<()> {
    let app = Router::new()
        .route(
            "/",
            get(|| async { asset(PAGE, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { asset(SCRIPT, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { asset(STYLE, "text/css; charset=utf-8") }),
        )
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/api/v1/query", get(query))
        .route("/api/v1/check", get(check_get).post(check_post))
        .route("/api/v1/table", get(table))
        .route("/api/v1/crib.pdf", get(crib_pdf))
        .fallback(|| async {
            Refusal {
                status: StatusCode::NOT_FOUND,
                message: "no such path: see docs/api.md".into(),
            }
        })
        .method_not_allowed_fallback(|| async {
            Refusal {
                status: StatusCode::METHOD_NOT_ALLOWED,
                message: "this path does not take that method: see docs/api.md".into(),
            }
        })
        .layer(RequestBodyLimitLayer::new(MAX_BODY))
        .with_state(shared);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let local = listener.local_addr()?;
    crate::cli::print(&format!("serving on http://{local}\n"))?;
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown())
        .await
        .context("the server stopped")?;
    Ok(())
}

/// Ctrl-C or SIGTERM.
async fn shutdown() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => {
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
}

/// The options of a request (its house rules, the hand's and the
/// witnesses'): every parameter but `cards` and those in `skip`.
fn read(params: &BTreeMap<String, String>, skip: &[&str]) -> Result<Options, Refusal> {
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

/// Whether a search may take seconds and gigabytes: five cards or more,
/// or four under functions or with any prime.
fn heavy(hand: Hand, rules: &Rules) -> bool {
    hand.len() >= 5
        || (hand.len() == 4 && (!rules.functions.is_empty() || rules.max_prime.is_none()))
}

/// Runs `work` off the server's threads, within the request's time limit
/// and, if `heavy`, in one of the places for heavy searches.
async fn solve(
    shared: &Shared,
    heavy: bool,
    work: impl FnOnce(Arc<Budget>) -> Result<String, Refusal> + Send + 'static,
) -> Result<String, Refusal> {
    let place = if heavy {
        match Arc::clone(&shared.heavy).try_acquire_owned() {
            Ok(place) => Some(place),
            Err(_) => {
                return Err(Refusal {
                    status: StatusCode::TOO_MANY_REQUESTS,
                    message: "the server is busy with other large searches: try again shortly"
                        .into(),
                });
            }
        }
    } else {
        None
    };
    let budget = Budget::new(shared.request_memory);
    let task = tokio::task::spawn_blocking(move || {
        let answer = work(budget);
        drop(place);
        answer
    });
    match tokio::time::timeout(shared.time_limit, task).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(_)) => Err(Refusal {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "the search failed".into(),
        }),
        Err(_) => Err(Refusal {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!(
                "the search takes longer than this server allows ({} s)",
                shared.time_limit.as_secs()
            ),
        }),
    }
}

/// `GET /api/v1/query?cards=...&<rules>`: what `query --format json` prints.
async fn query(
    State(shared): State<Arc<Shared>>,
    Query(params): Query<BTreeMap<String, String>>,
) -> Response {
    respond(answer_query(&shared, &params).await)
}

async fn answer_query(
    shared: &Shared,
    params: &BTreeMap<String, String>,
) -> Result<String, Refusal> {
    let (hand, rules, options) = hand_and_rules(params, &[])?;
    let style = options.style.style();
    solve(shared, heavy(hand, &rules), move |budget| {
        let run = || -> Result<String> {
            let solver = Solver::new(rules)?.with_budget(budget);
            let answer = solver.query(hand, Want::Primes)?;
            let (primes, _room) = answer.written(style, json::BYTES_PER_PRIME)?;
            Ok(serde_json::to_string_pretty(&json::query(&answer, &primes))? + "\n")
        };
        run().map_err(|e| Refusal::of(&e))
    })
    .await
}

/// The house rules of a request that names no cards, and its options.
fn read_rules(params: &BTreeMap<String, String>) -> Result<(Rules, Options), Refusal> {
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
fn hand_and_rules(
    params: &BTreeMap<String, String>,
    skip: &[&str],
) -> Result<(Hand, Rules, Options), Refusal> {
    let cards = cards(params)?;
    let options = read(params, skip)?;
    let rules = options.rules.rules().map_err(|e| Refusal::of(&e))?;
    let hand = parse_hand(&cards, rules.faces, &options.hand).map_err(|e| Refusal::of(&e))?;
    Ok((hand, rules, options))
}

/// Whether a sweep of every three-card hand may take seconds: under
/// functions with any prime, or nested functions.
fn heavy_sweep(rules: &Rules) -> bool {
    !rules.functions.is_empty() && (rules.max_prime.is_none() || rules.function_depth > 1)
}

/// `GET /api/v1/table?<rules>`: every three-card hand of the rule set with
/// each prime it makes and its simplest witness.
async fn table(
    State(shared): State<Arc<Shared>>,
    Query(params): Query<BTreeMap<String, String>>,
) -> Response {
    let answer = async {
        let (rules, options) = read_rules(&params)?;
        let style = options.style.style();
        solve(&shared, heavy_sweep(&rules), move |budget| {
            let run = || -> Result<String> {
                let solver = Solver::new(rules)?.with_budget(budget);
                let mut hands = Vec::new();
                for dealt in prime_solve::deal(3, rules.faces).0 {
                    let answer = solver.query(dealt.hand, Want::Primes)?;
                    hands.push((dealt, answer.written(style, json::BYTES_PER_PRIME)?.0));
                }
                Ok(serde_json::to_string(&json::table(&rules, &hands))? + "\n")
            };
            run().map_err(|e| Refusal::of(&e))
        })
        .await
    };
    respond(answer.await)
}

/// `GET /api/v1/crib.pdf?<rules>`: the crib sheet `prime-solve crib`
/// writes, as PDF.
async fn crib_pdf(
    State(shared): State<Arc<Shared>>,
    Query(params): Query<BTreeMap<String, String>>,
) -> Response {
    let answer = async {
        let mut params = params;
        let paper = match params.remove("paper").as_deref() {
            None | Some("a4") => prime_solve::report::crib::Paper::A4,
            Some("letter") => prime_solve::report::crib::Paper::Letter,
            Some(_) => return Err(Refusal::bad("paper is a4 or letter")),
        };
        let (rules, _) = read_rules(&params)?;
        solve(&shared, heavy_sweep(&rules), move |budget| {
            let run = || -> Result<String> {
                let a = prime_solve::analysis::analyze(rules, 3, &budget, &|_| {})?;
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
async fn check_get(
    State(shared): State<Arc<Shared>>,
    Query(params): Query<BTreeMap<String, String>>,
) -> Response {
    respond(answer_check(&shared, &params).await)
}

/// `POST /api/v1/check` with `{"cards": "4 6 8", "claim": "(6*4)/8", ...}`.
async fn check_post(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    let params: BTreeMap<String, serde_json::Value> = match serde_json::from_slice(&body) {
        Ok(p) => p,
        Err(e) => {
            return Refusal::bad(format!("the body is not a JSON object: {e}")).into_response();
        }
    };
    let mut flat = BTreeMap::new();
    for (key, value) in params {
        let text = match value {
            serde_json::Value::String(s) => s,
            serde_json::Value::Bool(b) => if b { "1" } else { "0" }.to_string(),
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::Array(items) => items
                .iter()
                .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(","),
            _ => {
                return Refusal::bad(format!("`{key}` must be a string, a number or true/false"))
                    .into_response();
            }
        };
        flat.insert(key, text);
    }
    respond(answer_check(&shared, &flat).await)
}

fn respond(result: Result<String, Refusal>) -> Response {
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
    solve(shared, false, move |_| {
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
