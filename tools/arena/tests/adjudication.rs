//! Every way a game can end, played by scripted fake engines (`src/bin/fake_engine.rs`) through
//! the real game loop: processes, pipes, clocks and all.

use crossbeam_channel::{bounded, Receiver, Sender};
use shomei::shogi::EnteringKingRule;
use shomei::Color;
use shomei_arena::clock::TimeControl;
use shomei_arena::config::{EngineConfig, Repetition, Variant};
use shomei_arena::engine::StderrLog;
use shomei_arena::game::{play, GameError, GameJob, GameRecord, GameSettings, Player, PonderCounts};
use shomei_arena::openings::{parse_line, Opening};
use shomei_arena::record::{csa_text, MatchInfo};
use shomei_arena::rules::EndReason;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// White king 1a, shut in by its pawns on 1c and 2c; Black rook 5b checks from rank a and rank b.
const PERPETUAL: &str = "sfen 8k/4R4/7pp/9/9/9/9/9/K8 b - 1";
/// Black to play G*1b, mate (the pawn on 1c guards 1b).
const MATE_IN_ONE: &str = "sfen 8k/9/8P/9/9/9/9/9/K8 b G 1";
/// Black king on 5b with 28 declaration points and 11 pieces in the camp.
const DECLARE: &str = "sfen 9/1R2K2B1/PPPPPPPPP/9/9/9/9/9/4k4 b 4G4SNrb3n4l9p 1";

fn fake(args: &str) -> EngineConfig {
    EngineConfig::from_command(&format!("'{}' {args}", env!("CARGO_BIN_EXE_fake-engine"))).unwrap()
}

fn settings(tc: &str) -> GameSettings {
    GameSettings {
        tc: TimeControl::parse(tc).unwrap(),
        tolerance: Duration::from_millis(50),
        max_move_time: Duration::from_secs(5),
        max_moves: 320,
        entering_king: EnteringKingRule::Csa27,
        variant: Variant::Shogi,
        repetition: Repetition { draw_at: 4 },
        usi_timeout: Duration::from_millis(1500),
        ready_timeout: Duration::from_millis(1500),
        quit_timeout: Duration::from_millis(300),
        stop_timeout: Duration::from_millis(200),
    }
}

fn player(cfg: EngineConfig, name: &str, log: StderrLog) -> Player {
    Player { config: cfg, name: name.into(), log }
}

fn job(opening: &str) -> GameJob {
    let mut o: Opening = parse_line(opening).unwrap();
    o.label = "test".into();
    GameJob { number: 1, pair: 0, opening: o, engine1_black: true }
}

/// A cancellation channel that is never triggered while the sender lives.
fn no_cancel() -> (Sender<()>, Receiver<()>) {
    bounded(0)
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arena-adj-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Engine 1 (Black) against engine 2 (White) from `opening`.
fn game(black: &str, white: &str, opening: &str, s: &GameSettings) -> GameRecord {
    let players = [
        player(fake(black), "black-engine", StderrLog::discard()),
        player(fake(white), "white-engine", StderrLog::discard()),
    ];
    let (_keep, cancel) = no_cancel();
    play(s, &players, &job(opening), &cancel).unwrap()
}

fn csa(rec: &GameRecord, s: &GameSettings) -> String {
    let info = MatchInfo {
        event: "t".into(),
        tc: s.tc.clone(),
        max_moves: s.max_moves,
        entering_king: s.entering_king,
        variant: s.variant,
    };
    csa_text(rec, &info)
}

#[test]
fn checkmate_when_no_legal_move() {
    let s = settings("byoyomi=1000");
    let rec = game("random", "random", MATE_IN_ONE, &s);
    assert_eq!(rec.outcome.winner, Some(Color::Black));
    assert_eq!(rec.outcome.reason, EndReason::Checkmate);
    assert_eq!(rec.usi_line(), "position sfen 8k/9/8P/9/9/9/9/9/K8 b G 1 moves G*1b");
    assert_eq!(rec.engine1_score(), 1.0);
    assert!(csa(&rec, &s).contains("+0012KI\nT0\n%TSUMI\n'result 1-0"));
}

#[test]
fn resignation() {
    let s = settings("byoyomi=1000");
    let rec = game("random", "resign after=2", "startpos", &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (Some(Color::Black), EndReason::Resign));
    // Two moves each, then White resigns instead of its third: five plies.
    assert_eq!(rec.game_plies(), 5);
    assert!(csa(&rec, &s).contains("%TORYO\n"));
}

#[test]
fn correct_declaration_wins_and_false_one_loses() {
    let s = settings("byoyomi=1000");
    let rec = game("declare", "random", DECLARE, &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (Some(Color::Black), EndReason::Declaration));
    assert!(csa(&rec, &s).contains("%KACHI\n"));

    // The same 28 points are only a draw under the 24-point rule.
    let s24 = GameSettings { entering_king: EnteringKingRule::Csa24, ..settings("byoyomi=1000") };
    let rec = game("declare", "random", DECLARE, &s24);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (None, EndReason::DeclarationDraw));

    // Declaring from the initial position is false: the declarer loses.
    let rec = game("random", "declare", "startpos", &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (Some(Color::Black), EndReason::FalseDeclaration));
    assert!(rec.outcome.detail.contains("White"), "{}", rec.outcome.detail);
    assert!(csa(&rec, &s).contains("T0\n%ILLEGAL_MOVE\n"));
}

#[test]
fn repetition_is_a_draw() {
    let s = settings("byoyomi=1000");
    let rec = game("script moves=2h3h,3h2h", "script moves=8b7b,7b8b", "startpos", &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (None, EndReason::Sennichite));
    assert_eq!(rec.game_plies(), 12);
    assert_eq!(rec.engine1_score(), 0.5);
    assert!(csa(&rec, &s).contains("%SENNICHITE\n"));
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    let s = settings("byoyomi=1000");
    let rec = game("script moves=5b5a,5a5b", "script moves=1a1b,1b1a", PERPETUAL, &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (Some(Color::White), EndReason::PerpetualCheck));
    assert_eq!(rec.game_plies(), 12);
    assert_eq!(rec.engine1_score(), 0.0);
    assert!(csa(&rec, &s).contains("%+ILLEGAL_ACTION\n"));
}

#[test]
fn move_limit_is_a_draw() {
    let s = GameSettings { max_moves: 10, ..settings("byoyomi=1000") };
    // Opening moves count toward the limit: 2 from the opening, 8 played.
    let rec = game("random seed=1", "random seed=2", "startpos moves 7g7f 3c3d", &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (None, EndReason::MaxMoves));
    assert_eq!(rec.moves.len(), 10);
    assert_eq!(rec.game_plies(), 8);
    assert!(csa(&rec, &s).contains("%JISHOGI\n"));
}

#[test]
fn illegal_and_malformed_moves_lose() {
    let s = settings("byoyomi=1000");
    let rec = game("random", "illegal after=1", "startpos", &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (Some(Color::Black), EndReason::IllegalMove));
    assert_eq!(rec.game_plies(), 3);
    assert!(rec.outcome.detail.contains("illegal"), "{}", rec.outcome.detail);

    let rec = game("garbage", "random", "startpos", &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (Some(Color::White), EndReason::IllegalMove));
    assert!(rec.outcome.detail.contains("not a move"), "{}", rec.outcome.detail);
}

#[test]
fn crash_loses() {
    let s = settings("byoyomi=1000");
    let rec = game("random", "crash after=2", "startpos", &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (Some(Color::Black), EndReason::Crash));
    assert!(rec.outcome.detail.contains("exit status 3"), "{}", rec.outcome.detail);
    assert!(rec.outcome.detail.contains("crashing as asked"), "stderr tail missing: {}", rec.outcome.detail);

    // Exiting before the handshake is a crash too, before any move.
    let rec = game("exit-at-start", "random", "startpos", &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (Some(Color::White), EndReason::Crash));
    assert_eq!(rec.game_plies(), 0);
    assert!(csa(&rec, &s).contains("%+ILLEGAL_ACTION\n"));
}

#[test]
fn hung_engine_loses_on_time_and_is_killed() {
    let s = settings("byoyomi=300");
    let t = Instant::now();
    let rec = game("random", "hang after=1", "startpos", &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (Some(Color::Black), EndReason::Time));
    assert!(rec.outcome.detail.contains("no bestmove within 350 ms"), "{}", rec.outcome.detail);
    // 350 ms to flag, 300 ms for `quit`, then the kill: well under two seconds.
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert!(csa(&rec, &s).contains("%TIME_UP\n"));
}

#[test]
fn slow_engine_loses_on_time() {
    let s = settings("byoyomi=200");
    let rec = game("slow delay=600", "random", "startpos", &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (Some(Color::White), EndReason::Time));
    assert_eq!(rec.game_plies(), 0);
}

#[test]
fn sudden_death_clock_runs_out() {
    // 0.35 s for the game, 0.1 s (and a little) a move for White: after three moves at most
    // 50 ms are left, so the fourth, limited to 50 + 50 ms tolerance, flags; the third had
    // about 100 ms to spare.
    let s = settings("0.35+0");
    let rec = game("random", "slow delay=100", "startpos", &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (Some(Color::Black), EndReason::Time));
    assert_eq!(rec.game_plies(), 7, "{}", rec.outcome.detail);
    let white_time: Duration = rec.moves.iter().skip(1).step_by(2).filter_map(|m| m.time).sum();
    assert!(white_time >= Duration::from_millis(300), "{white_time:?}");
}

#[test]
fn fischer_increment_keeps_a_slow_engine_alive() {
    // Same engine, but 0.12 s added after each move: it never runs out within 20 moves.
    let s = GameSettings { max_moves: 20, ..settings("0.3+0.12") };
    let rec = game("random", "slow delay=100", "startpos", &s);
    assert_eq!(
        (rec.outcome.winner, rec.outcome.reason),
        (None, EndReason::MaxMoves),
        "{}",
        rec.outcome.detail
    );
}

#[test]
fn handshake_failures_lose() {
    let s = settings("byoyomi=1000");
    let s = GameSettings {
        usi_timeout: Duration::from_millis(300),
        ready_timeout: Duration::from_millis(300),
        ..s
    };
    let rec = game("random", "no-usiok", "startpos", &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (Some(Color::Black), EndReason::NoResponse));
    assert!(rec.outcome.detail.contains("usiok"), "{}", rec.outcome.detail);
    // Black is to move but White failed: a foul by White.
    assert!(csa(&rec, &s).contains("%-ILLEGAL_ACTION\n"));

    let rec = game("no-readyok", "random", "startpos", &s);
    assert_eq!((rec.outcome.winner, rec.outcome.reason), (Some(Color::White), EndReason::NoResponse));
    assert!(rec.outcome.detail.contains("readyok"), "{}", rec.outcome.detail);

    // Nobody to blame when both fail: the game is not scored.
    let players = [
        player(fake("no-usiok"), "a", StderrLog::discard()),
        player(fake("exit-at-start"), "b", StderrLog::discard()),
    ];
    let (_keep, cancel) = no_cancel();
    match play(&s, &players, &job("startpos"), &cancel) {
        Err(GameError::BothFailed(msg)) => {
            assert!(msg.contains("engine 1") && msg.contains("engine 2"), "{msg}")
        }
        other => panic!("expected BothFailed, got {other:?}"),
    }
}

#[test]
fn missing_program_is_a_spawn_error() {
    let s = settings("byoyomi=1000");
    let players = [
        player(fake("random"), "a", StderrLog::discard()),
        player(EngineConfig::from_command("/nonexistent/engine").unwrap(), "b", StderrLog::discard()),
    ];
    let (_keep, cancel) = no_cancel();
    match play(&s, &players, &job("startpos"), &cancel) {
        Err(GameError::Spawn { engine: 1, message }) => {
            assert!(message.contains("/nonexistent/engine"), "{message}")
        }
        other => panic!("expected a spawn error, got {other:?}"),
    }
}

#[test]
fn flood_of_output_neither_blocks_nor_slows_the_game() {
    let dir = temp_dir("flood");
    let log_path = dir.join("white.stderr.log");
    let limit = 300_000;
    let s = GameSettings { max_moves: 8, ..settings("byoyomi=5000") };
    let players = [
        player(fake("random"), "quiet", StderrLog::create(&dir.join("black.log"), limit).unwrap()),
        player(fake("flood lines=20000"), "noisy", StderrLog::create(&log_path, limit).unwrap()),
    ];
    let (_keep, cancel) = no_cancel();
    let rec = play(&s, &players, &job("startpos"), &cancel).unwrap();
    // 4 moves by the flooding engine, each after 20,000 info lines, a 200 kB line and 1 MB of
    // stderr: none of it may cost the game.
    assert_eq!(
        (rec.outcome.winner, rec.outcome.reason),
        (None, EndReason::MaxMoves),
        "{}",
        rec.outcome.detail
    );
    let log = std::fs::read_to_string(&log_path).unwrap();
    assert!(log.len() as u64 <= limit + 200, "log grew to {}", log.len());
    assert!(log.starts_with("[game 1] eeee"));
    assert!(log.contains("further stderr output is dropped"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn options_and_gameover_reach_the_engines() {
    let dir = temp_dir("options");
    let mut cfg = fake("random");
    cfg.options = vec![("Seed".into(), Some("7".into())), ("Button".into(), None)];
    let players = [
        player(cfg, "a", StderrLog::create(&dir.join("1.log"), 1 << 20).unwrap()),
        player(fake("resign"), "b", StderrLog::create(&dir.join("2.log"), 1 << 20).unwrap()),
    ];
    let (_keep, cancel) = no_cancel();
    let rec = play(&settings("byoyomi=1000"), &players, &job("startpos"), &cancel).unwrap();
    assert_eq!(rec.outcome.reason, EndReason::Resign);
    let log1 = std::fs::read_to_string(dir.join("1.log")).unwrap();
    assert!(log1.contains("got setoption name Seed value 7"), "{log1}");
    assert!(log1.contains("got setoption name Button\n"), "{log1}");
    assert!(log1.contains("got gameover win"), "{log1}");
    let log2 = std::fs::read_to_string(dir.join("2.log")).unwrap();
    assert!(log2.contains("got gameover lose"), "{log2}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cancellation_stops_a_game_at_once() {
    let s = settings("byoyomi=30000");
    let players =
        [player(fake("random"), "a", StderrLog::discard()), player(fake("hang"), "b", StderrLog::discard())];
    let (cancel_tx, cancel) = no_cancel();
    let t = Instant::now();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        drop(cancel_tx);
    });
    let r = play(&s, &players, &job("startpos"), &cancel);
    stopper.join().unwrap();
    assert!(matches!(r, Err(GameError::Cancelled)), "{r:?}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

/// Black ponders (`--ponder1`) with `black`, against `white`, from the initial position; returns
/// the game and what Black's engine echoed to its stderr.
fn ponder_game(black: &str, white: &str, s: &GameSettings, name: &str) -> (GameRecord, String) {
    let dir = temp_dir(name);
    let mut cfg = fake(black);
    cfg.ponder = true;
    let players = [
        player(cfg, "ponderer", StderrLog::create(&dir.join("black.log"), 1 << 20).unwrap()),
        player(fake(white), "other", StderrLog::discard()),
    ];
    let (_keep, cancel) = no_cancel();
    let rec = play(s, &players, &job("startpos"), &cancel).unwrap();
    let log = std::fs::read_to_string(dir.join("black.log")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (rec, log)
}

/// Rooks shuffle to a fourfold repetition in 12 plies; Black guesses White's 8b7b right and
/// its 7b8b wrong (it guesses 4a3b).
const BLACK_SHUFFLE: &str = "script moves=2h3h,3h2h ponders=8b7b,4a3b";
const WHITE_SHUFFLE: &str = "script moves=8b7b,7b8b";

#[test]
fn pondering_gets_ponderhit_when_guessed_and_stop_when_not() {
    let s = settings("byoyomi=1000");
    let (rec, log) = ponder_game(BLACK_SHUFFLE, WHITE_SHUFFLE, &s, "ponder");
    assert_eq!(
        (rec.outcome.winner, rec.outcome.reason),
        (None, EndReason::Sennichite),
        "{}",
        rec.outcome.detail
    );
    assert_eq!(rec.game_plies(), 12);
    // Six answers, each offering a legal guess: three right (ponderhit), two wrong (stop), and
    // the last still running when the repetition ends the game (stop before gameover).
    let want = PonderCounts { go_ponder: 6, ponderhit: 3, stop: 2, at_end: 1 };
    assert_eq!(rec.answers[0].ponder, want);
    assert_eq!(rec.answers[0].answers, 6);
    assert_eq!(rec.answers[1].ponder, PonderCounts::default());
    assert!(log.contains("got setoption name USI_Ponder value true"), "{log}");
    // The clock as it stands after Black's move, `ponder` right after `go`.
    assert_eq!(log.matches("got go ponder btime 0 wtime 0 byoyomi 1000\n").count(), 6, "{log}");
    assert_eq!(log.matches("got ponderhit\n").count(), 3, "{log}");
    assert_eq!(log.matches("got stop\n").count(), 3, "{log}");
    let (last_stop, gameover) = (log.rfind("got stop").unwrap(), log.find("got gameover draw").unwrap());
    assert!(last_stop < gameover, "{log}");
    // The slowest answer is one of the game's moves, within the limit.
    let slow = rec.answers[0].slowest.unwrap();
    assert_eq!(slow.allowed, Duration::from_millis(1050));
    assert!(slow.ply % 2 == 1 && slow.ply <= 11, "{slow:?}");
    assert_eq!(slow.game, 1);

    // A guess that is illegal after the move is not pondered on.
    let (rec, log) = ponder_game("script moves=2h3h,3h2h ponders=9i9a", WHITE_SHUFFLE, &s, "no-ponder");
    assert_eq!(rec.outcome.reason, EndReason::Sennichite);
    assert_eq!(rec.answers[0].ponder, PonderCounts::default());
    assert!(!log.contains("go ponder"), "{log}");
}

#[test]
fn answering_go_ponder_at_once_breaks_the_protocol() {
    let s = settings("byoyomi=1000");
    // White takes 50 ms a move, so Black's early answer is surely in before Black's turn.
    let (rec, _) = ponder_game(&format!("{BLACK_SHUFFLE} ponder-mode=early"), "slow delay=50", &s, "early");
    assert_eq!(
        (rec.outcome.winner, rec.outcome.reason),
        (Some(Color::White), EndReason::ProtocolError),
        "{}",
        rec.outcome.detail
    );
    assert!(
        rec.outcome.detail.contains("answered go ponder before ponderhit or stop"),
        "{}",
        rec.outcome.detail
    );
    assert_eq!(rec.game_plies(), 2);
    assert!(csa(&rec, &s).contains("%+ILLEGAL_ACTION\n"));
    // The search that answered too early ended with the game: the counts still add up.
    assert_eq!(rec.answers[0].ponder, PonderCounts { go_ponder: 1, ponderhit: 0, stop: 0, at_end: 1 });
}

#[test]
fn no_answer_to_stop_while_pondering_is_a_hang() {
    let s = settings("byoyomi=1000");
    let t = Instant::now();
    let (rec, log) =
        ponder_game("script moves=2h3h,3h2h ponders=4a3b ponder-mode=deaf", WHITE_SHUFFLE, &s, "deaf");
    assert_eq!(
        (rec.outcome.winner, rec.outcome.reason),
        (Some(Color::White), EndReason::Hang),
        "{}",
        rec.outcome.detail
    );
    // 200 ms stop timeout + 50 ms tolerance.
    assert!(
        rec.outcome.detail.contains("gave no bestmove within 250 ms after stop while pondering on 4a3b"),
        "{}",
        rec.outcome.detail
    );
    assert_eq!(rec.game_plies(), 2);
    assert_eq!(rec.answers[0].ponder, PonderCounts { go_ponder: 1, ponderhit: 0, stop: 1, at_end: 0 });
    assert!(log.contains("got gameover lose"), "{log}");
    assert!(csa(&rec, &s).contains("%TIME_UP\n"));
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}
