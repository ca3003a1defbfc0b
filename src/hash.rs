//! FNV-1a, 64 bits: the one checksum of bytes, the same on every machine,
//! behind shard manifests, the crib's font subset tag and the day's ten
//! deals.

/// The FNV-1a hash of `bytes`, 64 bits. It tells bytes apart (a part cut
/// short or mixed up, another subset of glyphs, another date), not a
/// guard against tampering.
///
/// ```
/// use prime_solve::fnv1a64;
/// assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
/// assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
/// ```
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    /// The FNV offset basis for 64 bits.
    const BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    /// The FNV prime for 64 bits.
    const PRIME: u64 = 0x0100_0000_01b3;
    bytes
        .iter()
        .fold(BASIS, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}
