//! What `serve --lan` prints: this machine's addresses on the local
//! network, and a QR code of the first, for a phone at the table to scan.

use std::fmt::Write as _;
use std::net::IpAddr;

use qrcode::QrCode;
use qrcode::render::unicode::Dense1x2;

/// The machine's addresses a phone on the same network can reach: up and
/// not loopback, IPv4 first (what a phone's camera app opens most
/// readily), link-local IPv6 left out (it needs a zone).
fn addresses() -> Vec<IpAddr> {
    let mut found: Vec<IpAddr> = if_addrs::get_if_addrs()
        .unwrap_or_default()
        .into_iter()
        .filter(|i| !i.is_loopback() && !i.is_link_local())
        .map(|i| i.ip())
        .collect();
    found.sort_by_key(|ip| (ip.is_ipv6(), *ip));
    found.dedup();
    found
}

/// The address of the page at `ip` and `port`.
fn url(ip: IpAddr, port: u16) -> String {
    match ip {
        IpAddr::V4(v4) => format!("http://{v4}:{port}/"),
        IpAddr::V6(v6) => format!("http://[{v6}]:{port}/"),
    }
}

/// `HOST:PORT` of the first address phones can reach this machine at.
pub(super) fn first(port: u16) -> Option<String> {
    let ip = *addresses().first()?;
    Some(match ip {
        IpAddr::V4(v4) => format!("{v4}:{port}"),
        IpAddr::V6(v6) => format!("[{v6}]:{port}"),
    })
}

/// `url` as a QR code in text, light on dark as terminals mostly are
/// (two rows of modules a line), with its quiet zone.
fn qr(url: &str) -> Option<String> {
    let code = QrCode::new(url.as_bytes()).ok()?;
    Some(
        code.render::<Dense1x2>()
            .dark_color(Dense1x2::Light)
            .light_color(Dense1x2::Dark)
            .quiet_zone(true)
            .build(),
    )
}

/// What to tell the person who started the server: where the phones
/// should go, and the code to scan.
pub(super) fn invitation(port: u16) -> String {
    let found = addresses();
    let Some(&first) = found.first() else {
        return "no address on a local network was found: connect this machine to the \
                table's network, or give the phones this machine's address by hand\n"
            .into();
    };
    let mut out = String::new();
    let _ = writeln!(out, "on a phone on this network, open {}", url(first, port));
    for &other in &found[1..] {
        let _ = writeln!(out, "  or {}", url(other, port));
    }
    if let Some(code) = qr(&url(first, port)) {
        out.push_str(&code);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_codes() {
        assert_eq!(
            url("192.168.1.20".parse().unwrap(), 8080),
            "http://192.168.1.20:8080/"
        );
        assert_eq!(url("fd00::1".parse().unwrap(), 80), "http://[fd00::1]:80/");
        let code = qr("http://192.168.1.20:8080/").unwrap();
        // A version-2 code (25 modules) with a 4-module quiet zone on each
        // side: 33 columns, two rows of modules a line.
        let lines: Vec<&str> = code.lines().collect();
        assert_eq!(lines.len(), 17, "{code}");
        assert!(lines.iter().all(|l| l.chars().count() == 33), "{code}");
    }

    #[test]
    fn the_invitation_names_an_address_or_says_there_is_none() {
        let text = invitation(8080);
        assert!(
            text.starts_with("on a phone on this network, open http://")
                || text.starts_with("no address on a local network"),
            "{text}"
        );
    }
}
