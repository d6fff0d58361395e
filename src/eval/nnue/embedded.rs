//! The network built into the binary, and with it the engine's default evaluator.
//!
//! The net is `nets/net5.nnue` at the top of the repository (`nets/README.md` gives the commands
//! that rebuild it and the match that accepted it); `EMBEDDED` is the one line naming it.
//! `shomei bench`, `shomei gensfen` and the USI option `EvalFile`'s default (`<embedded>`) use
//! it; `UseNNUE false` goes back to the hand-written evaluation. The `material` build never uses
//! it (its evaluation is material alone).

use super::network::{Network, NetworkError};
use std::sync::{Arc, OnceLock};

/// The bytes of the built-in network file, if there is one.
const EMBEDDED: Option<&[u8]> = Some(include_bytes!("../../../nets/net5.nnue"));

/// The built-in network, read once on first use; `None` when the binary has none (or in the
/// `material` build). Panics if the built-in file is refused: that is a build error, and the
/// tests catch it.
pub fn network() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| {
        if cfg!(feature = "material") {
            return None;
        }
        parse(EMBEDDED).unwrap_or_else(|e| panic!("the embedded network is refused: {e}"))
    })
    .clone()
}

/// The network in `bytes`, if any.
fn parse(bytes: Option<&[u8]>) -> Result<Option<Arc<Network>>, NetworkError> {
    bytes.map(|b| Network::from_bytes(b).map(Arc::new)).transpose()
}

/// Tests of the loader and of the built-in network.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::random_network;

    #[test]
    fn the_loader_reads_a_network_or_none_and_refuses_damage() {
        assert_eq!(parse(None), Ok(None));
        let net = random_network(11);
        let bytes = net.to_bytes();
        assert_eq!(parse(Some(&bytes)).unwrap().as_deref(), Some(&net));
        assert!(parse(Some(&bytes[1..])).is_err());
    }

    #[test]
    fn the_built_in_network_if_any_is_valid() {
        // No net is embedded yet; once one is, this reads and checks it.
        assert_eq!(network().is_some(), EMBEDDED.is_some() && !cfg!(feature = "material"));
    }
}
