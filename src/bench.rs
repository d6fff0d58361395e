//! `bench`: a fixed set of positions searched to a fixed depth with one thread and a fixed
//! table. Its node total is the search's signature: it changes exactly when search behaviour
//! changes.

use crate::eval::nnue::{self, AnyNetwork};
use crate::search::{Limits, SearchEvent, SearchOptions, Searcher};
use crate::shogi::Position;
use std::path::Path;
use std::time::Instant;

/// Positions as `position` arguments: openings, middlegames with pieces in hand, endgames.
pub const POSITIONS: &[&str] = &[
    // Openings.
    "startpos",
    "startpos moves 7g7f 3c3d",
    "startpos moves 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b",
    "startpos moves 7g7f 8c8d 2h7h 8d8e 8h7g 7a6b",
    "startpos moves 7g7f 3c3d 2g2f 4c4d 3i4h 8b4b",
    "sfen ln2kg1nl/r2sgs3/1ppppp1pp/p4bp2/9/4P1P1P/PPPP1PNP1/1B3S2R/LNSGKG2L w - 26",
    "sfen ln1g1k1nl/r2s1gs2/ppppppppb/8p/5P3/6P2/PPPPP2PP/1BSG1S2R/LN1K1G1NL w - 26",
    "sfen ln1gkg1nl/1r1s1s3/pppppppp1/6P1p/4B1b2/2P1P2P1/PP1P1P2P/5S1R1/LNSGKG1NL w - 26",
    "sfen ln1gk1bnl/r2sgs3/p1p1ppppp/1p1p5/9/2P5P/PP1PPPPPN/1B1S1S2R/LN1GKG2L w - 26",
    "sfen ln1skg2l/r2g1s3/p1ppppnp1/1p1b2p1p/9/4P1P2/PPPP1PNPP/1BGSGS2L/LN2K2R1 w - 26",
    "sfen ln1skg2l/r2g3s1/p1ppppnp1/3b2p2/1p6p/4P1P2/PPPP1PNPP/LBGSGS2L/1N1K3R1 w - 46",
    "sfen lns1kg1nl/3g1s1b1/p1pp1ppp1/4p3p/2+r6/P7P/1PPPPPPP1/1BG1G2R1/LNSK1S1NL w p 26",
    // Middlegames with pieces in hand.
    "sfen lnsgk1snl/1r4g2/p1ppppb1p/6pP1/7R1/2P6/P2PPPP1P/1SG6/LN2KGSNL b BP2p 21",
    "sfen ln1gkg3/1r1s1sb2/ppppp4/5+B1p1/5nR2/2P1P2P1/PP1P1P2L/3S1S3/LN1GKG1N1 w L4Pp 46",
    "sfen ln2k3+L/1r1sgg3/ppppp4/6+Bp1/5N2R/4P1pP1/P1NP1P3/1+b1S1S3/L2GKG2+p w SN3Pl2p 66",
    "sfen ln2kpS1+L/1r1sg+L2+R/ppppp4/7+B1/5N3/4+b2P1/P2P1P+p2/3S1S3/L3KG2+p w 2G4P2n2p 86",
    "sfen 4kg2l/2sg1s1b1/l1pp1pppn/8p/5+r3/4p2PP/PPPPPPP2/1BGSG2R1/1N1KS2NL w Nl2p 46",
    "sfen 4kg2l/2g2s1b1/2pp1pppn/8p/9/+r6PP/1PPPGPP2/1BG4R1/1N1KS2NL w SNL2Psl3p 66",
    "sfen 1l2k3l/1g2gs1b1/2pp1pppn/3N+R3p/9/7PP/NPPPGPP2/1G4r1L/P2KS1sN1 w BSLP3p 86",
    "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "sfen 8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    "sfen l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
    // Endgames, mating attacks and composed positions.
    "sfen 1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N5K b SP2gn2l11p 1",
    "sfen 7nl/7k1/6p2/6S1p/9/9/9/9/9 b GS2r2b3g2s3n3l16p 1",
    "sfen 3sks3/9/4+P4/9/9/+B8/9/9/9 b S2rb4gs4n4l17p 1",
    "startpos moves 2g2f 3c3d 7g7f 4c4d 2f2e 2b3c 3i4h 3a2b 5i6h 8b4b",
    "sfen R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "sfen k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1",
    "sfen 4K4/1R1B1G1S1/PPPPPPPPP/9/9/9/9/9/4k4 b B 1",
    "sfen 7lk/9/8S/9/9/9/9/7L1/8K b P 1",
];

/// How the benchmark searches.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// The depth every position is searched to.
    pub depth: i32,
    /// The transposition table size in MB (cleared before each position).
    pub hash_mb: usize,
    /// The network that evaluates; by default the engine's default evaluator (the network
    /// built in, if any, or the hand-written evaluation).
    pub network: Option<AnyNetwork>,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig { depth: 9, hash_mb: 16, network: SearchOptions::default().network }
    }
}

impl BenchConfig {
    /// `shomei bench [depth] [--eval-file FILE]`: the network in FILE evaluates instead of the
    /// default evaluator. A depth that is not a number is ignored; a file that cannot be used is
    /// an error.
    pub fn from_args(args: &[String]) -> Result<BenchConfig, String> {
        let mut c = BenchConfig::default();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            if arg == "--eval-file" {
                let path = it.next().ok_or("--eval-file needs a file")?;
                c.network = Some(nnue::load(Path::new(path))?);
            } else if let Ok(d) = arg.parse::<i32>() {
                c.depth = d.clamp(1, 64);
            }
        }
        Ok(c)
    }
}

/// Runs the benchmark and returns its report, ending with the `Nodes searched` and
/// `Nodes/second` lines.
pub fn run(config: &BenchConfig) -> String {
    let mut searcher = Searcher::new(config.hash_mb);
    let options = SearchOptions { network: config.network.clone(), ..SearchOptions::default() };
    let mut report = String::new();
    let mut total_nodes = 0u64;
    let start = Instant::now();
    for (i, text) in POSITIONS.iter().enumerate() {
        let words: Vec<&str> = text.split_whitespace().collect();
        let pos = Position::from_usi_args(&words).expect("bench positions are valid");
        let (tx, rx) = crossbeam_channel::unbounded();
        let limits = Limits { depth: Some(config.depth), ..Limits::default() };
        searcher.start(pos, limits, options.clone(), std::time::Instant::now(), tx);
        let mut nodes = 0;
        for ev in rx.iter() {
            if let SearchEvent::Done { nodes: n, best, .. } = ev {
                nodes = n;
                report.push_str(&format!("position {:>2}: {:>10} nodes, bestmove {:?}\n", i + 1, n, best));
                break;
            }
        }
        searcher.wait();
        total_nodes += nodes;
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    report.push_str(&format!(
        "\nTime (ms): {ms}\nNodes searched: {total_nodes}\nNodes/second: {}\n",
        total_nodes * 1000 / ms
    ));
    report
}
