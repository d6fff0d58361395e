//! A short HalfKP training on real self-play: the loss falls, the net written is read by the
//! engine's loader with the evaluation the float model gives, the file is the same bytes for
//! any thread count, and `--init` goes on from it.

use crate::shared::{temp_dir, tiny_data};
use shomei::eval::nnue::{self, AnyNetwork};
use shomei_train::cli::parse_nnue;
use shomei_train::halfkp::train;

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn training_lowers_the_loss_and_writes_a_net_the_engine_reads() {
    let dir = temp_dir("halfkp-training");
    let data = tiny_data(&dir);
    let run = |threads: usize, out: &str, extra: &str| {
        let line = format!(
            "--arch halfkp_256x2-32-32 --data {} --out {} --epochs 3 --batch-size 64 --lr 1e-3 \
             --validation-share 0 --threads {threads} --no-progress {extra}",
            data.display(),
            dir.join(out).display()
        );
        let config = parse_nnue(&args(&line)).unwrap();
        let arch = config.arch.expect("--arch halfkp");
        train::run(&config, arch, &mut std::io::sink()).unwrap()
    };
    let one = run(1, "one.bin", "");
    let losses: Vec<f64> = one.history.iter().map(|e| e.train).collect();
    assert!(losses[3] < losses[1] && losses[1] < losses[0], "{losses:?}");
    let two = run(2, "two.bin", "");
    assert_eq!(
        one.history.iter().map(|e| e.train).collect::<Vec<_>>(),
        two.history.iter().map(|e| e.train).collect::<Vec<_>>()
    );
    let bytes = std::fs::read(dir.join("one.bin")).unwrap();
    assert_eq!(bytes, std::fs::read(dir.join("two.bin")).unwrap());
    let Ok(AnyNetwork::HalfKp { .. }) = nnue::load(&dir.join("one.bin")) else { panic!("not a HalfKP net") };

    // Going on from the file: the first loss is the written net's.
    let init = format!("--init {}", dir.join("one.bin").display());
    let resumed = run(1, "again.bin", &init);
    assert!(
        (resumed.history[0].train - one.quantised_loss).abs() < 1e-4,
        "{:?} vs {}",
        resumed.history[0],
        one.quantised_loss
    );
    // A net of another size is refused.
    let other = parse_nnue(&args(&format!(
        "--arch halfkp_512x2-16-32 --data {} --out {} {init}",
        data.display(),
        dir.join("x.bin").display()
    )))
    .unwrap();
    assert!(train::run(&other, other.arch.unwrap(), &mut std::io::sink())
        .unwrap_err()
        .contains("not halfkp_512x2-16-32"));
    let _ = std::fs::remove_dir_all(&dir);
}
