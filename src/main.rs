//! The `prime-solve` command: a thin shell over the library. The command
//! line (`cli`) reads the arguments; `serve` is the server, and `main`
//! chooses between them: neither knows the other.

mod cli;
#[cfg(feature = "serve")]
mod serve;

use std::process::ExitCode;

fn main() -> ExitCode {
    one_arena_under_an_address_space_limit();
    let command = match cli::start() {
        Ok(command) => command,
        Err(refused) => return refused,
    };
    match command {
        #[cfg(feature = "serve")]
        cli::args::Command::Serve(args) => {
            cli::conclude(serve::run(&server_config(&args)).map(|()| cli::Verdict::Yes))
        }
        command => cli::run(command),
    }
}

/// `serve`'s arguments as the server's own configuration.
#[cfg(feature = "serve")]
fn server_config(args: &cli::args::ServeArgs) -> serve::Config {
    serve::Config {
        addr: args.listen(),
        lan: args.lan,
        request_memory: args.request_memory,
        time_limit: std::time::Duration::from_secs(args.time_limit),
        heavy: usize::try_from(args.heavy).unwrap_or(1),
        heavy_per_minute: args.heavy_per_minute,
        connections_per_address: usize::try_from(args.connections_per_address)
            .unwrap_or(usize::MAX),
        max_rooms: usize::try_from(args.max_rooms).unwrap_or(usize::MAX),
        rooms_per_minute: args.rooms_per_minute,
        record: args.record.clone(),
    }
}

/// Under `ulimit -v`, glibc's malloc would give threads arenas of their
/// own, each reserving 64 MiB of address space (128 MiB while it is laid
/// out) that the memory budget cannot see, so that under `ulimit -v
/// 200000` two worker threads leave no room for a 32-byte allocation and
/// the process aborts. Where the address space is limited, every thread
/// shares the main arena instead (a lock shared by the threads; without
/// a limit nothing changes).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(
    unsafe_code,
    reason = "one call of glibc's mallopt, before any other thread exists"
)]
fn one_arena_under_an_address_space_limit() {
    use std::ffi::c_int;
    unsafe extern "C" {
        fn mallopt(param: c_int, value: c_int) -> c_int;
    }
    /// glibc's `M_ARENA_MAX` (malloc.h).
    const M_ARENA_MAX: c_int = -8;
    if cli::address_space_limit().is_some() {
        // SAFETY: mallopt only sets a parameter of the allocator; it is
        // called first thing in `main`, while this is the only thread.
        unsafe {
            mallopt(M_ARENA_MAX, 1);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn one_arena_under_an_address_space_limit() {}
