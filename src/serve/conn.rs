//! The server's connections: at most a share of them for one address, and
//! none held open by a client that stops sending or reading. A
//! connection with nothing moving either way for [`IDLE`] is closed, so a
//! half-sent request cannot hold a socket (or a graceful shutdown)
//! forever; a room's page sends a ping well within it, and a search is
//! given its time limit and more.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::serve::Listener;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep, sleep};

/// How long a connection may sit with nothing moving, at the least (a
/// longer time limit for searches makes it longer).
pub(super) const IDLE: Duration = Duration::from_secs(45);

/// A listener that counts each address's connections and closes those
/// past its share at once.
pub(super) struct Guarded {
    listener: TcpListener,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
    per_address: usize,
    idle: Duration,
}

impl Guarded {
    /// `listener`, each address holding at most `per_address`
    /// connections, each closed after `idle` with nothing moving.
    pub(super) fn new(listener: TcpListener, per_address: usize, idle: Duration) -> Guarded {
        Guarded {
            listener,
            open: Arc::default(),
            per_address,
            idle,
        }
    }
}

impl Listener for Guarded {
    type Io = Idle;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Idle, SocketAddr) {
        loop {
            let (stream, addr) = match self.listener.accept().await {
                Ok(accepted) => accepted,
                Err(_) => {
                    // Out of descriptors, say: wait a little for some to
                    // be given back.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let ip = addr.ip();
            {
                let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
                let n = open.entry(ip).or_insert(0);
                if *n >= self.per_address {
                    continue;
                }
                *n += 1;
            }
            let _ = stream.set_nodelay(true);
            return (
                Idle {
                    stream,
                    timer: Box::pin(sleep(self.idle)),
                    idle: self.idle,
                    _slot: Slot {
                        open: Arc::clone(&self.open),
                        ip,
                    },
                },
                addr,
            );
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

/// A connection counted against its address until dropped.
struct Slot {
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// A TCP stream that fails with `TimedOut` once nothing has moved for its
/// idle time.
pub(super) struct Idle {
    stream: TcpStream,
    timer: Pin<Box<Sleep>>,
    idle: Duration,
    /// Counted against its address while open.
    _slot: Slot,
}

impl Idle {
    /// Something moved: the clock starts again.
    fn moved(&mut self) {
        let idle = self.idle;
        self.timer.as_mut().reset(Instant::now() + idle);
    }

    /// Nothing moved: whether the connection has sat idle too long.
    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        self.timer.as_mut().poll(cx).is_ready()
    }
}

fn timed_out() -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, "the connection sat idle too long")
}

impl AsyncRead for Idle {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match Pin::new(&mut self.stream).poll_read(cx, buf) {
            Poll::Ready(result) => {
                self.moved();
                Poll::Ready(result)
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncWrite for Idle {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.stream).poll_write(cx, buf) {
            Poll::Ready(result) => {
                self.moved();
                Poll::Ready(result)
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
