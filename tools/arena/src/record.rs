//! Game records: a CSA file per game (CSA standard record format V2.2, loadable in shogi GUIs),
//! one USI `position` line per game, and a tab-separated results table. Everything is written
//! and flushed as soon as a game ends, so an interrupted match keeps every finished game.

use crate::clock::TimeControl;
use crate::config::Variant;
use crate::game::GameRecord;
use crate::rules::EndReason;
use shomei::shogi::{EnteringKingRule, STARTPOS};
use shomei::{Color, Move, PieceKind, Position, Square};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Match facts written into every record.
#[derive(Clone, Debug)]
pub struct MatchInfo {
    pub event: String,
    pub tc: TimeControl,
    pub max_moves: u32,
    pub entering_king: EnteringKingRule,
    /// The game played: shogi games get CSA records, Dobutsu games (which CSA cannot write) a
    /// plain text record.
    pub variant: Variant,
}

/// CSA piece name (the rules' table: `shomei::shogi::csa`).
pub fn csa_piece(k: PieceKind) -> &'static str {
    shomei::shogi::csa::csa_name(k)
}

fn csa_sign(c: Color) -> char {
    match c {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// CSA square: file digit then rank digit, both 1..9 (USI `7g` is `77`).
fn csa_square(sq: Square) -> String {
    format!("{}{}", sq.file() + 1, sq.rank() + 1)
}

/// A legal move in CSA notation (`+7776FU`, `-0055KA`, `+8822UM`), from the position before it.
pub fn csa_move(pos: &Position, m: Move) -> String {
    let sign = csa_sign(pos.side_to_move());
    if m.is_drop() {
        return format!("{sign}00{}{}", csa_square(m.to()), csa_piece(m.dropped_kind()));
    }
    let kind = pos.piece_on(m.from()).kind();
    let after = if m.is_promotion() { kind.promoted() } else { kind };
    format!("{sign}{}{}{}", csa_square(m.from()), csa_square(m.to()), csa_piece(after))
}

/// The start position in CSA: `PI` for the initial position, else the board, hands, side.
pub fn csa_position(pos: &Position) -> String {
    let fields = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    if fields(&pos.to_sfen()) == fields(STARTPOS) {
        out.push_str("PI\n");
    } else {
        for rank in 0..9u8 {
            out.push_str(&format!("P{}", rank + 1));
            for file in (0..9u8).rev() {
                let p = pos.piece_on(Square::new(file, rank));
                if p.is_none() {
                    out.push_str(" * ");
                } else {
                    out.push(csa_sign(p.color()));
                    out.push_str(csa_piece(p.kind()));
                }
            }
            out.push('\n');
        }
        for c in Color::ALL {
            let hand = pos.hand(c);
            if hand.is_empty() {
                continue;
            }
            out.push('P');
            out.push(csa_sign(c));
            for k in PieceKind::HAND_SFEN_ORDER {
                for _ in 0..hand.count(k) {
                    out.push_str("00");
                    out.push_str(csa_piece(k));
                }
            }
            out.push('\n');
        }
    }
    out.push(csa_sign(pos.side_to_move()));
    out.push('\n');
    out
}

/// The CSA end line for a finished game; `to_move` is the side to move at the end.
pub fn csa_end(reason: EndReason, winner: Option<Color>, to_move: Color) -> String {
    let loser = winner.map(|w| !w);
    let foul = |c: Color| format!("%{}ILLEGAL_ACTION", csa_sign(c));
    match reason {
        EndReason::Checkmate | EndReason::NoLegalMove | EndReason::LionCaptured | EndReason::Try => {
            "%TSUMI".into()
        }
        EndReason::Resign => "%TORYO".into(),
        EndReason::Declaration => "%KACHI".into(),
        EndReason::DeclarationDraw => "%HIKIWAKE".into(),
        EndReason::FalseDeclaration | EndReason::IllegalMove => match loser {
            Some(l) if l != to_move => foul(l),
            _ => "%ILLEGAL_MOVE".into(),
        },
        EndReason::Sennichite => "%SENNICHITE".into(),
        EndReason::MaxMoves => "%JISHOGI".into(),
        EndReason::Time | EndReason::NoResponse | EndReason::Hang => match loser {
            Some(l) if l != to_move => foul(l),
            _ => "%TIME_UP".into(),
        },
        EndReason::PerpetualCheck | EndReason::Crash | EndReason::ProtocolError => match loser {
            Some(l) => foul(l),
            None => "%CHUDAN".into(),
        },
    }
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `YYYY/MM/DD HH:MM:SS` in UTC.
pub fn format_utc(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let r = secs % 86_400;
    format!("{y:04}/{m:02}/{d:02} {:02}:{:02}:{:02}", r / 3600, r % 3600 / 60, r % 60)
}

/// One line of free text: no line breaks or tabs.
fn one_line(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

fn result_words(rec: &GameRecord) -> String {
    match rec.outcome.winner {
        Some(c) => {
            format!("{} wins as {}", rec.names[c.index()], if c == Color::Black { "Black" } else { "White" })
        }
        None => "draw".into(),
    }
}

/// A Dobutsu game as text: who played, the moves as a USI `position` line with each move's
/// time, and the result.
pub fn dobutsu_text(rec: &GameRecord, info: &MatchInfo) -> String {
    let mut s = String::new();
    s.push_str(&format!("# {} game {}\n", one_line(&info.event), rec.number));
    s.push_str(&format!("# first player (Black): {}\n", one_line(&rec.names[0])));
    s.push_str(&format!("# second player (White): {}\n", one_line(&rec.names[1])));
    s.push_str(&format!("# time control: {}; started {}\n", info.tc.describe(), format_utc(rec.started)));
    s.push_str(&format!("# opening: {} ({} plies)\n", one_line(&rec.opening.label), rec.opening.moves.len()));
    s.push_str(&rec.usi_line());
    s.push('\n');
    s.push_str(&format!("# move times (ms): {}\n", move_times_ms(rec)));
    s.push_str(&format!("# {}\n", result_line(rec)));
    s
}

/// Each move's measured time in milliseconds, space-separated ("-" where none was measured).
fn move_times_ms(rec: &GameRecord) -> String {
    let times: Vec<String> =
        rec.moves.iter().map(|m| m.time.map_or("-".to_string(), |t| t.as_millis().to_string())).collect();
    times.join(" ")
}

/// `result 1-0: NAME wins as Black by REASON: DETAIL`, for the end of a record.
fn result_line(rec: &GameRecord) -> String {
    format!(
        "result {}: {} by {}: {}",
        rec.result_text(),
        result_words(rec),
        rec.outcome.reason.code(),
        one_line(&rec.outcome.detail)
    )
}

/// The game as a CSA V2.2 record.
pub fn csa_text(rec: &GameRecord, info: &MatchInfo) -> String {
    let mut pos = rec.opening.root_position();
    let end_time = rec.started + rec.wall;
    let mut s = String::with_capacity(4096);
    s.push_str("V2.2\n");
    s.push_str(&format!("N+{}\nN-{}\n", one_line(&rec.names[0]), one_line(&rec.names[1])));
    s.push_str(&format!("$EVENT:{} game {}\n", one_line(&info.event), rec.number));
    s.push_str(&format!("$START_TIME:{}\n$END_TIME:{}\n", format_utc(rec.started), format_utc(end_time)));
    if let TimeControl::Clock { base, inc, byoyomi } = &info.tc {
        let (b, y) = (base.as_millis(), byoyomi.as_millis());
        if inc.is_zero() && b % 60_000 == 0 && y % 1000 == 0 && y / 1000 < 100 {
            s.push_str(&format!("$TIME_LIMIT:{:02}:{:02}+{:02}\n", b / 3_600_000, b / 60_000 % 60, y / 1000));
        }
    }
    s.push_str(&format!(
        "'time control: {}; max moves {}; entering king rule {:?}; times in UTC\n",
        info.tc.describe(),
        info.max_moves,
        info.entering_king
    ));
    s.push_str(&format!("'opening: {} ({} plies)\n", one_line(&rec.opening.label), rec.opening.moves.len()));
    s.push_str(&csa_position(&pos));
    for pm in &rec.moves {
        let mv = pos.parse_move(&pm.mv).expect("the runner checked every move");
        s.push_str(&csa_move(&pos, mv));
        s.push('\n');
        s.push_str(&format!("T{}\n", pm.time.map_or(0, |t| t.as_secs())));
        pos.do_move(mv);
    }
    s.push_str(&csa_end(rec.outcome.reason, rec.outcome.winner, pos.side_to_move()));
    s.push('\n');
    s.push_str(&format!("'{}\n", result_line(rec)));
    // CSA's `T` lines hold whole seconds; sub-second clocks need the milliseconds ("-": none measured).
    s.push_str(&format!("'move times (ms): {}\n", move_times_ms(rec)));
    s
}

pub const RESULTS_HEADER: &str =
    "game\tpair\topening\tblack\twhite\tresult\treason\tplies\twall_ms\tthink_ms\tcsa\tdetail\tusi";

/// Refuses an output folder that holds an earlier match, unless `overwrite`.
pub fn check_out_dir(dir: &Path, overwrite: bool) -> Result<(), String> {
    if dir.join("results.tsv").exists() && !overwrite {
        return Err(format!(
            "'{}' already holds a match (results.tsv); choose another --out or pass --overwrite",
            dir.display()
        ));
    }
    Ok(())
}

/// The output folder of a match.
pub struct RecordSink {
    dir: PathBuf,
    results: File,
    usi: File,
    width: usize,
    info: MatchInfo,
}

impl RecordSink {
    /// Creates `dir` with `games/` and `logs/`. Refuses a folder holding an earlier match unless
    /// `overwrite`; then that match's records are removed first.
    pub fn create(dir: &Path, overwrite: bool, games: usize, info: MatchInfo) -> Result<RecordSink, String> {
        check_out_dir(dir, overwrite)?;
        let results_path = dir.join("results.tsv");
        let ctx = |what: &str, p: &Path, e: io::Error| format!("cannot {what} '{}': {e}", p.display());
        for sub in ["games", "logs"] {
            let p = dir.join(sub);
            fs::create_dir_all(&p).map_err(|e| ctx("create folder", &p, e))?;
        }
        if overwrite {
            if let Ok(entries) = fs::read_dir(dir.join("games")) {
                for entry in entries.flatten() {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let record = name.ends_with(".csa") || name.ends_with(".txt");
                    if record && name[..name.len() - 4].bytes().all(|b| b.is_ascii_digit()) {
                        let _ = fs::remove_file(entry.path());
                    }
                }
            }
        }
        let mut results = File::create(&results_path).map_err(|e| ctx("create", &results_path, e))?;
        writeln!(results, "{RESULTS_HEADER}").map_err(|e| ctx("write", &results_path, e))?;
        let usi_path = dir.join("games.usi");
        let usi = File::create(&usi_path).map_err(|e| ctx("create", &usi_path, e))?;
        let width = games.to_string().len().max(4);
        Ok(RecordSink { dir: dir.to_path_buf(), results, usi, width, info })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The CSA file of game `number`, relative to the output folder.
    pub fn csa_name(&self, number: usize) -> String {
        let ext = if self.info.variant == Variant::Dobutsu { "txt" } else { "csa" };
        format!("games/{:0w$}.{ext}", number, w = self.width)
    }

    /// Writes the CSA record, the results row and the USI line of a finished game.
    pub fn write_game(&mut self, rec: &GameRecord) -> io::Result<()> {
        let csa_name = self.csa_name(rec.number);
        let text = match self.info.variant {
            Variant::Shogi => csa_text(rec, &self.info),
            Variant::Dobutsu => dobutsu_text(rec, &self.info),
        };
        fs::write(self.dir.join(&csa_name), text)?;
        let usi = rec.usi_line();
        let row = [
            rec.number.to_string(),
            (rec.pair + 1).to_string(),
            one_line(&rec.opening.label),
            one_line(&rec.names[0]),
            one_line(&rec.names[1]),
            rec.result_text().to_string(),
            rec.outcome.reason.code().to_string(),
            rec.game_plies().to_string(),
            rec.wall.as_millis().to_string(),
            rec.think.as_millis().to_string(),
            csa_name,
            one_line(&rec.outcome.detail),
            usi.clone(),
        ];
        writeln!(self.results, "{}", row.join("\t"))?;
        self.results.flush()?;
        writeln!(self.usi, "{usi}")?;
        self.usi.flush()
    }

    /// Replaces `summary.txt` (written whole, then renamed into place).
    pub fn write_summary(&self, text: &str) -> io::Result<()> {
        let tmp = self.dir.join("summary.txt.tmp");
        fs::write(&tmp, text)?;
        fs::rename(&tmp, self.dir.join("summary.txt"))
    }

    /// Opens (appending) a file in the output folder.
    pub fn open_append(&self, name: &str) -> io::Result<File> {
        OpenOptions::new().create(true).append(true).open(self.dir.join(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::PlayedMove;
    use crate::openings::{parse_line, Opening};
    use crate::rules::Outcome;
    use std::time::Duration;

    fn record(opening: Opening, game_moves: &[&str], outcome: Outcome) -> GameRecord {
        let mut pos = opening.position();
        let mut moves: Vec<PlayedMove> =
            pos.history().map(|mv| PlayedMove { mv: mv.to_string(), time: None }).collect();
        for (i, m) in game_moves.iter().enumerate() {
            let mv = pos.parse_move(m).unwrap();
            pos.do_move(mv);
            moves.push(PlayedMove {
                mv: mv.to_string(),
                time: Some(Duration::from_millis(1500 + 1000 * i as u64)),
            });
        }
        GameRecord {
            number: 7,
            pair: 3,
            opening,
            engine1_black: true,
            names: ["alpha".into(), "beta".into()],
            moves,
            outcome,
            started: UNIX_EPOCH + Duration::from_secs(1_704_067_200), // 2024-01-01 00:00:00 UTC
            wall: Duration::from_secs(61),
            think: Duration::from_secs(3),
            setup: Duration::from_millis(5),
            teardown: Duration::from_millis(5),
            answers: Default::default(),
        }
    }

    fn info() -> MatchInfo {
        MatchInfo {
            event: "test".into(),
            tc: TimeControl::parse("byoyomi=1000").unwrap(),
            max_moves: 320,
            entering_king: EnteringKingRule::Csa27,
            variant: Variant::Shogi,
        }
    }

    #[test]
    fn dates() {
        assert_eq!(format_utc(UNIX_EPOCH), "1970/01/01 00:00:00");
        assert_eq!(format_utc(UNIX_EPOCH + Duration::from_secs(1_704_067_200 + 3661)), "2024/01/01 01:01:01");
        // 2000-02-29 12:00:00 UTC = 951825600.
        assert_eq!(format_utc(UNIX_EPOCH + Duration::from_secs(951_825_600)), "2000/02/29 12:00:00");
    }

    #[test]
    fn csa_from_the_initial_position() {
        let opening = parse_line("startpos moves 7g7f 3c3d").unwrap();
        let rec = record(
            opening,
            &["8h2b+", "3a2b", "B*4e"],
            Outcome {
                winner: Some(Color::Black),
                reason: EndReason::Resign,
                detail: "White (beta) resigned".into(),
            },
        );
        let text = csa_text(&rec, &info());
        let expected = "\
V2.2
N+alpha
N-beta
$EVENT:test game 7
$START_TIME:2024/01/01 00:00:00
$END_TIME:2024/01/01 00:01:01
$TIME_LIMIT:00:00+01
'time control: byoyomi 1 s; max moves 320; entering king rule Csa27; times in UTC
'opening:  (2 plies)
PI
+
+7776FU
T0
-3334FU
T0
+8822UM
T1
-3122GI
T2
+0045KA
T3
%TORYO
'result 1-0: alpha wins as Black by resign: White (beta) resigned
'move times (ms): - - 1500 2500 3500
";
        assert_eq!(text, expected);
    }

    #[test]
    fn csa_from_an_sfen_with_hands() {
        let opening = parse_line("sfen 8k/9/8P/9/9/9/9/9/K8 b G2Pp 1").unwrap();
        let rec = record(
            opening,
            &["G*1b"],
            Outcome {
                winner: Some(Color::Black),
                reason: EndReason::Checkmate,
                detail: "White is checkmated".into(),
            },
        );
        let text = csa_text(&rec, &info());
        assert!(text.contains(
            "P1 *  *  *  *  *  *  *  * -OU\nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  *  * +FU\n"
        ));
        assert!(
            text.contains("P9+OU *  *  *  *  *  *  *  * \nP+00KI00FU00FU\nP-00FU\n+\n+0012KI\nT1\n%TSUMI\n")
        );
    }

    #[test]
    fn end_lines() {
        use EndReason::*;
        let (b, w) = (Color::Black, Color::White);
        assert_eq!(csa_end(IllegalMove, Some(w), b), "%ILLEGAL_MOVE");
        assert_eq!(csa_end(Time, Some(b), w), "%TIME_UP");
        // Losing on time (no usiok) while the other side is to move: a foul of that side.
        assert_eq!(csa_end(NoResponse, Some(b), b), "%-ILLEGAL_ACTION");
        assert_eq!(csa_end(PerpetualCheck, Some(w), w), "%+ILLEGAL_ACTION");
        assert_eq!(csa_end(Crash, Some(b), w), "%-ILLEGAL_ACTION");
        // A pondering engine that never answered `stop`, on its turn: as a time loss.
        assert_eq!(csa_end(Hang, Some(w), b), "%TIME_UP");
        assert_eq!(csa_end(ProtocolError, Some(w), b), "%+ILLEGAL_ACTION");
        assert_eq!(csa_end(Sennichite, None, b), "%SENNICHITE");
        assert_eq!(csa_end(MaxMoves, None, b), "%JISHOGI");
        assert_eq!(csa_end(Declaration, Some(b), b), "%KACHI");
        assert_eq!(csa_end(DeclarationDraw, None, b), "%HIKIWAKE");
        assert_eq!(csa_end(FalseDeclaration, Some(w), b), "%ILLEGAL_MOVE");
    }

    #[test]
    fn sink_refuses_an_earlier_match_and_writes_rows() {
        let dir = std::env::temp_dir().join(format!("arena-record-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut sink = RecordSink::create(&dir, false, 12, info()).unwrap();
        let rec = record(
            parse_line("startpos moves 2g2f").unwrap(),
            &["8c8d"],
            Outcome { winner: None, reason: EndReason::MaxMoves, detail: "2 moves played\tx".into() },
        );
        sink.write_game(&rec).unwrap();
        sink.write_summary("summary").unwrap();
        let tsv = fs::read_to_string(dir.join("results.tsv")).unwrap();
        let row: Vec<&str> = tsv.lines().nth(1).unwrap().split('\t').collect();
        assert_eq!(row.len(), RESULTS_HEADER.split('\t').count());
        assert_eq!(row[5], "1/2-1/2");
        assert_eq!(row[10], "games/0007.csa");
        assert_eq!(row[11], "2 moves played x");
        assert_eq!(row[12], "position startpos moves 2g2f 8c8d");
        assert!(dir.join("games/0007.csa").exists());
        assert_eq!(fs::read_to_string(dir.join("games.usi")).unwrap(), "position startpos moves 2g2f 8c8d\n");
        drop(sink);
        let err = RecordSink::create(&dir, false, 12, info()).err().unwrap();
        assert!(err.contains("--overwrite"), "{err}");
        RecordSink::create(&dir, true, 12, info()).unwrap();
        assert!(!dir.join("games/0007.csa").exists());
        let _ = fs::remove_dir_all(&dir);
    }
}
