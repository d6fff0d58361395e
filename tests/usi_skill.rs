//! Strength levels through the real binary: `SkillLevel`, `UCI_LimitStrength` with `UCI_Elo`, and
//! `SkillSeed`. A level replays its game for a seed, full strength is today's search exactly,
//! every level answers with legal moves within its depth and node bounds, and a found mate in one
//! is always played.

mod common {
    pub mod usi_engine;
    pub mod usi_lines;
}

use common::usi_engine::{Engine, SEARCH};
use common::usi_lines::{assert_legal, is_bestmove, is_readyok, parse_bestmove, pv_infos, with_moves};
use shomei::search::skill::{Skill, ELO_MAX, ELO_MIN};

/// Sets the options `settings` (name, value), then waits for `readyok`.
fn configure(e: &mut Engine, settings: &[(&str, String)]) {
    for (name, value) in settings {
        e.send(&format!("setoption name {name} value {value}"));
    }
    e.send("isready");
    e.expect_line(is_readyok, SEARCH);
}

/// Searches `position <args>` with `go <limit>`: the lines up to `bestmove`, and its move.
fn search(e: &mut Engine, args: &str, limit: &str) -> (Vec<String>, String) {
    e.send(&format!("position {args}"));
    e.send(&format!("go {limit}"));
    let lines = e.collect_until(is_bestmove, SEARCH);
    let (best, _) = parse_bestmove(e, lines.last().expect("a bestmove line"));
    (lines, best)
}

/// The engine plays both sides for `plies` plies from the start with `settings`; the moves.
fn self_play(settings: &[(&str, String)], plies: usize) -> Vec<String> {
    let mut e = Engine::spawn();
    configure(&mut e, settings);
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        let played: Vec<&str> = moves.iter().map(String::as_str).collect();
        let args = with_moves("startpos", &played);
        let (_, best) = search(&mut e, &args, "byoyomi 2000");
        if best == "resign" || best == "win" {
            break;
        }
        assert_legal(&e, &args, &best);
        moves.push(best);
    }
    e.quit();
    moves
}

fn level(level: u32, seed: u64) -> Vec<(&'static str, String)> {
    vec![("SkillLevel", level.to_string()), ("SkillSeed", seed.to_string())]
}

#[test]
fn a_level_replays_its_game_for_a_seed_and_another_seed_plays_another() {
    let first = self_play(&level(3, 11), 24);
    let again = self_play(&level(3, 11), 24);
    assert_eq!(first, again, "the same level and seed play the same game");
    let others: Vec<Vec<String>> = [12, 13, 14].iter().map(|&s| self_play(&level(3, s), 24)).collect();
    assert!(others.iter().any(|g| *g != first), "other seeds all played {first:?}");
}

#[test]
fn uci_elo_at_the_bottom_plays_as_level_zero_and_at_the_top_as_full_strength() {
    let by_elo = vec![
        ("UCI_LimitStrength", "true".to_string()),
        ("UCI_Elo", ELO_MIN.to_string()),
        ("SkillSeed", "5".to_string()),
    ];
    assert_eq!(self_play(&by_elo, 12), self_play(&level(0, 5), 12));
    // Full strength by either option: the same search as with neither, node for node.
    let nodes = |settings: &[(&str, String)]| {
        let mut e = Engine::spawn();
        configure(&mut e, settings);
        let args = "startpos moves 7g7f 3c3d 2g2f";
        let (lines, best) = search(&mut e, args, "depth 7");
        let last = pv_infos(&e, &lines).last().map(|i| i.nodes).expect("pv lines");
        e.quit();
        (best, last)
    };
    let plain = nodes(&[]);
    assert_eq!(nodes(&level(20, 9)), plain);
    let top = vec![("UCI_LimitStrength", "true".to_string()), ("UCI_Elo", ELO_MAX.to_string())];
    assert_eq!(nodes(&top), plain);
}

#[test]
fn every_level_plays_legal_moves_within_its_depth_and_node_bounds() {
    let positions = [
        "startpos",
        "startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b 5i6h 5a6b",
        "sfen ln1g3nl/1r1s1kg2/p1pppp1pp/6p2/1p7/2P3P2/PP1PPP2P/1BG1K2R1/LNS2GSNL b BS 23",
    ];
    let mut e = Engine::spawn();
    for l in 0..20 {
        let skill = Skill::new(l, 1).expect("below full strength");
        configure(&mut e, &level(l, 1));
        for args in positions {
            let (lines, best) = search(&mut e, args, "byoyomi 1000");
            assert_legal(&e, args, &best);
            let infos = pv_infos(&e, &lines);
            let last = infos.last().unwrap_or_else(|| e.fail(&format!("level {l}: no pv line")));
            // The search checks its node limit every 1,024 nodes.
            if last.depth as i32 > skill.depth_limit() || last.nodes > skill.node_limit() + 1024 {
                e.fail(&format!(
                    "level {l} searched depth {} and {} nodes; its bounds are {} and {}",
                    last.depth,
                    last.nodes,
                    skill.depth_limit(),
                    skill.node_limit()
                ));
            }
        }
    }
    e.quit();
}

#[test]
fn every_level_plays_a_mate_in_one() {
    // G*5b mates: the pawn on 5c guards the gold, which covers every square around the king.
    let args = "sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G2r2b3g4s4n4l17p 1";
    let mut e = Engine::spawn();
    for l in 0..20 {
        for seed in 1..4 {
            configure(&mut e, &level(l, seed));
            let (_, best) = search(&mut e, args, "byoyomi 1000");
            if best != "G*5b" {
                e.fail(&format!("level {l}, seed {seed} played {best}, not the mate G*5b"));
            }
        }
    }
    e.quit();
}
