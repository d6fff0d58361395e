//! Export then import is the identity on the quantised weights, and a net written by the
//! trainer's exporter from the fixture's seeded weights evaluates every fixture position as
//! YaneuraOu printed it.

use crate::common::{read_fixture, FV_SCALES};
use crate::shared::temp_dir;
use shomei::eval::nnue::halfkp::{AnyHalfKp, Arch};
use shomei::eval::nnue::{self, AnyNetwork};
use shomei::Position;
use shomei_train::halfkp::model::HalfKpModel;

#[test]
fn export_then_import_is_the_identity_on_the_quantised_weights() {
    let model = HalfKpModel::random(Arch::K256x2_32_32, 5);
    let first = model.quantise();
    // Factors are merged at export, so the model read back has none, and the same integers.
    let back = HalfKpModel::from_plain(&first);
    assert_eq!(back.quantise(), first);
    // Through the file's bytes and the engine's reader too.
    let bytes = model.to_network().to_bytes();
    let read = AnyHalfKp::from_bytes(&bytes).unwrap();
    assert_eq!(read.to_plain(), first);
    assert_eq!(HalfKpModel::from_plain(&read.to_plain()).to_network().to_bytes(), bytes);
}

#[test]
fn fixture_nets_written_by_the_trainer_evaluate_as_yaneuraou_does() {
    let dir = temp_dir("halfkp-fixture");
    for arch in Arch::ALL {
        let fixture = read_fixture(arch);
        // The fixture's seeded weights, into the float model and out through the exporter.
        let model = HalfKpModel::from_plain(&AnyHalfKp::random(arch, fixture.seed).to_plain());
        let path = dir.join(format!("{}.bin", arch.name()));
        std::fs::write(&path, model.to_network().to_bytes()).unwrap();
        drop(model);
        let Ok(AnyNetwork::HalfKp { net, .. }) = nnue::load(&path) else {
            panic!("{} not read", arch.name())
        };
        std::fs::remove_file(&path).unwrap();
        let mut wrong = Vec::new();
        for (sfen, expected) in &fixture.rows {
            let pos = Position::from_sfen(sfen).unwrap();
            for (fv, want) in FV_SCALES.iter().zip(expected) {
                let got = net.evaluate(&pos, *fv);
                if got != *want {
                    wrong.push(format!("FV_SCALE {fv}: {got}, YaneuraOu {want}: {sfen}"));
                }
            }
        }
        assert!(wrong.is_empty(), "{}: {} differ, first {:?}", arch.name(), wrong.len(), &wrong[..1]);
        assert!(fixture.rows.len() > 1000);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
