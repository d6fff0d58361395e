//! `sha256` against the `sha2` crate: messages of every length from 0 to 300 bytes (each
//! padding case) and long ones, hashed whole and fed in uneven pieces.

use sha2::{Digest, Sha256 as Oracle};
use shomei::rng::Rng;
use shomei::sha256::{digest, file_hex, hex, Sha256};

#[test]
fn sha256_agrees_with_the_sha2_crate() {
    let mut rng = Rng::new(0x5a);
    for len in (0..=300).chain([1000, 4096, 65_537, 1 << 20]) {
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let expected: [u8; 32] = Oracle::digest(&bytes).into();
        assert_eq!(digest(&bytes), expected, "length {len}");
        let mut pieces = Sha256::new();
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let take = (1 + rng.below(200)).min(rest.len());
            pieces.update(&rest[..take]);
            rest = &rest[take..];
        }
        assert_eq!(pieces.finish(), expected, "length {len} in pieces");
    }
    let path = std::env::temp_dir().join(format!("shomei-sha256-{}", std::process::id()));
    let bytes: Vec<u8> = (0..3_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&path, &bytes).unwrap();
    let from_file = file_hex(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(from_file, hex(&Oracle::digest(&bytes).into()));
}
