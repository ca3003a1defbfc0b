//! `prime-solve serve`: the JSON API over HTTP, the crib as PDF, and a page
//! for phones at the table. Every answer comes from the library's own
//! entry points (`Solver::query`, `check`, the practice drill, the JSON
//! renderers), a request read as the library reads one
//! (`prime_solve::request`: the cards as the command line reads them, the
//! house rules, plain words for its faults and hints), so the server
//! answers what the command answers. Each request has its own memory
//! budget and time limit;
//! heavy searches take one of a few places and count against their
//! address's share, so that they cannot starve the light ones.
//!
//! - `api`: the query, the referee, the table and the crib;
//! - `practice`: deals, the daily deal, a drill's rounds and its summary;
//! - `limit`: each address's share of heavy searches;
//! - `conn`: each address's share of connections, and idle ones closed;
//! - `lan`: this machine's address on the local network, as a QR code;
//! - `rooms`: game rooms, each player's phone a seat.

mod api;
mod conn;
mod lan;
mod limit;
mod practice;
mod rooms;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use axum::Router;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::serve::ListenerExt as _;
use tokio::sync::Semaphore;
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

use api::Refusal;

/// How the server listens, and the limits of each request and address.
pub(crate) struct Config {
    /// Where to listen; with `lan`, every interface at its port.
    pub(crate) addr: SocketAddr,
    /// Listen on every interface and print this machine's address on the
    /// local network, with its QR code.
    pub(crate) lan: bool,
    /// The memory budget of one request's search, in bytes.
    pub(crate) request_memory: u64,
    /// How long a search may take before it is answered 503.
    pub(crate) time_limit: Duration,
    /// Heavy searches running at once; more are answered 429.
    pub(crate) heavy: usize,
    /// Heavy searches one address may start a minute.
    pub(crate) heavy_per_minute: u32,
    /// Connections one address may hold open.
    pub(crate) connections_per_address: usize,
    /// Game rooms open at once, and those one address may make a minute.
    pub(crate) max_rooms: usize,
    pub(crate) rooms_per_minute: u32,
    /// Where each finished game of the rooms is appended, if anywhere.
    pub(crate) record: Option<std::path::PathBuf>,
}

/// How many light searches (sweeps of three-card hands, hands under
/// nested functions) run at once; more wait their turn.
const LIGHT: usize = 4;

/// The largest request body read (a claim and its house rules).
const MAX_BODY: usize = 16 << 10;

/// The page, embedded in the binary: nothing to deploy, no request that
/// leaves the machine.
const PAGE: &str = include_str!("page/index.html");
const COMMON: &str = include_str!("page/common.js");
const SCRIPT: &str = include_str!("page/app.js");
const PRACTICE: &str = include_str!("page/practice.js");
const STYLE: &str = include_str!("page/style.css");
const ROOM_PAGE: &str = include_str!("page/room.html");
const ROOM_SCRIPT: &str = include_str!("page/room.js");
const KEYPAD: &str = include_str!("page/keypad.js");
const WORKER: &str = include_str!("page/sw.js");
const MANIFEST: &str = include_str!("page/manifest.json");
const ICON: &str = include_str!("page/icon.svg");

/// Scripts and styles from the server alone, none inline.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; \
                   connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; \
                   base-uri 'none'; frame-ancestors 'none'";

/// One of the page's files, with the policy that forbids inline scripts.
/// The page is asked for again whenever it is online (`no-cache`), so a
/// new server's page is never hidden behind an old copy.
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
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// What every request shares: its limits, the places for heavy searches
/// and each address's share of them.
pub(crate) struct Shared {
    request_memory: u64,
    time_limit: Duration,
    heavy: Arc<Semaphore>,
    /// Places for light work off the server's threads.
    light: Arc<Semaphore>,
    shares: limit::Shares,
    solvers: Arc<api::Solvers>,
    rooms: Arc<rooms::Rooms>,
}

/// Serves until Ctrl-C or SIGTERM, then lets the requests in flight finish.
pub(crate) fn run(config: &Config) -> Result<()> {
    let shared = Arc::new(Shared {
        request_memory: config.request_memory,
        time_limit: config.time_limit,
        heavy: Arc::new(Semaphore::new(config.heavy)),
        light: Arc::new(Semaphore::new(LIGHT)),
        shares: limit::Shares::new(config.heavy_per_minute),
        solvers: Arc::default(),
        rooms: Arc::new(rooms::Rooms::new(
            config.max_rooms,
            config.rooms_per_minute,
            config.record.clone(),
        )),
    });
    if let Some(path) = &config.record {
        // Appended to, never replaced: found writable before the first game.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot append to the record {}", path.display()))?;
    }
    let addr = if config.lan {
        SocketAddr::from(([0, 0, 0, 0], config.addr.port()))
    } else {
        config.addr
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(serve(
        addr,
        config.lan,
        config.connections_per_address,
        shared,
    ))
}

/// Writes what the server says on starting to stdout at once.
fn print(text: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write to standard output")
}

/// The page's files: path, body, type. A room's page answers at
/// `/room/CODE` and `/room/CODE/table`.
const FILES: [(&str, &str, &str); 12] = [
    ("/", PAGE, "text/html; charset=utf-8"),
    ("/common.js", COMMON, "text/javascript; charset=utf-8"),
    ("/app.js", SCRIPT, "text/javascript; charset=utf-8"),
    ("/practice.js", PRACTICE, "text/javascript; charset=utf-8"),
    ("/style.css", STYLE, "text/css; charset=utf-8"),
    ("/sw.js", WORKER, "text/javascript; charset=utf-8"),
    ("/manifest.json", MANIFEST, "application/manifest+json"),
    ("/icon.svg", ICON, "image/svg+xml"),
    ("/room/{code}", ROOM_PAGE, "text/html; charset=utf-8"),
    ("/room/{code}/table", ROOM_PAGE, "text/html; charset=utf-8"),
    ("/room.js", ROOM_SCRIPT, "text/javascript; charset=utf-8"),
    ("/keypad.js", KEYPAD, "text/javascript; charset=utf-8"),
];

/// Every path the server answers.
fn router(shared: Arc<Shared>) -> Router {
    let time_limit = shared.time_limit;
    let mut router = Router::new();
    for (path, body, kind) in FILES {
        router = router.route(path, get(move || async move { asset(body, kind) }));
    }
    router
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/api/v1/query", get(api::query))
        .route("/api/v1/check", get(api::check_get).post(api::check_post))
        .route("/api/v1/table", get(api::table))
        .route("/api/v1/crib.pdf", get(api::crib_pdf))
        .route("/api/v1/deal", get(practice::deal))
        .route("/api/v1/daily", get(practice::daily))
        .route("/api/v1/practice", post(practice::round))
        .route("/api/v1/practice/summary", post(practice::summary))
        .route("/api/v1/rooms", post(rooms::create))
        .route("/api/v1/rooms/lengths", post(rooms::lengths))
        .route("/api/v1/rooms/{code}/join", post(rooms::join))
        .route("/api/v1/rooms/{code}/ws", get(rooms::socket))
        .route("/api/v1/rooms/{code}/qr.svg", get(rooms::qr))
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
        .layer(CompressionLayer::new())
        // A backstop past the searches' own limit: a request whose body
        // never comes, say.
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            time_limit + Duration::from_secs(5),
        ))
        .layer(axum::middleware::map_response(json_errors))
        .layer(axum::middleware::map_request(plain_or_gzip))
        .with_state(shared)
}

/// Every refusal as JSON: those the layers make (a body too large or too
/// slow, 413 and 408) come as plain text or empty, and are put in the
/// API's words.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let body = axum::body::to_bytes(response.into_body(), 4096)
        .await
        .unwrap_or_default();
    let said = String::from_utf8_lossy(&body).trim().to_string();
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => format!("the body is over {} KiB", MAX_BODY >> 10),
        StatusCode::REQUEST_TIMEOUT => "the request did not come in time".to_string(),
        _ if said.is_empty() => status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase(),
        _ => said,
    };
    Refusal { status, message }.into_response()
}

/// A client that refuses both plain answers and gzip (`identity;q=0`)
/// gets plain answers all the same, with their own status, rather than a
/// 406 in place of every answer.
async fn plain_or_gzip(mut request: axum::extract::Request) -> axum::extract::Request {
    let refuses_plain = request
        .headers()
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.replace(' ', "").contains("identity;q=0"));
    if refuses_plain {
        request.headers_mut().remove(header::ACCEPT_ENCODING);
    }
    request
}

async fn serve(addr: SocketAddr, lan: bool, per_address: usize, shared: Arc<Shared>) -> Result<()> {
    let app = router(Arc::clone(&shared));
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let local = listener.local_addr()?;
    print(&format!("serving on http://{local}\n"))?;
    if lan {
        print(&lan::invitation(local.port()))?;
        if let Some(first) = lan::first(local.port()) {
            let _ = shared.rooms.lan.set(first);
        }
    }
    let idle = conn::IDLE.max(shared.time_limit + Duration::from_secs(15));
    let listener = conn::Guarded::new(listener, per_address, idle).tap_io(|_| {});
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
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
