//! The loss curve on disk: a CSV table and a hand-written SVG plot of the training and
//! validation losses by epoch.

use super::checkpoint::EpochLoss;

/// The history as CSV: a header line, then `epoch,lr,train,validation,seconds,positions_per_s`.
pub fn csv(history: &[EpochLoss]) -> String {
    let mut text = String::from("epoch,lr,train,validation,seconds,positions_per_s\n");
    for e in history {
        text.push_str(&format!(
            "{},{:e},{:.8},{:.8},{:.2},{:.0}\n",
            e.epoch, e.lr, e.train, e.validation, e.seconds, e.speed
        ));
    }
    text
}

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 440.0;
/// Margins: left, right, top, bottom.
const MARGIN: (f64, f64, f64, f64) = (80.0, 20.0, 40.0, 50.0);
const TICKS: usize = 5;

/// A curve: its name, its colour and its (epoch, loss) points.
type Series<'a> = (&'a str, &'a str, Vec<(f64, f64)>);

/// The history as an SVG line plot: loss against epoch, training in blue, validation in
/// orange (left out where there are no validation positions), with `title` above.
pub fn svg(history: &[EpochLoss], title: &str) -> String {
    let series: Vec<Series> = [
        ("train", "#1f77b4", history.iter().map(|e| (e.epoch as f64, e.train)).collect::<Vec<_>>()),
        ("validation", "#ff7f0e", history.iter().map(|e| (e.epoch as f64, e.validation)).collect()),
    ]
    .into_iter()
    .filter(|(_, _, points)| points.iter().any(|&(_, y)| y > 0.0))
    .collect();
    let ys = series.iter().flat_map(|(_, _, p)| p.iter().map(|&(_, y)| y));
    let (mut low, mut high) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), y| (l.min(y), h.max(y)));
    if !low.is_finite() {
        (low, high) = (0.0, 1.0);
    }
    let pad = ((high - low) * 0.05).max(1e-9);
    (low, high) = (low - pad, high + pad);
    let last_epoch = history.iter().map(|e| e.epoch).max().unwrap_or(0).max(1) as f64;
    let (left, right, top, bottom) = MARGIN;
    let (plot_w, plot_h) = (WIDTH - left - right, HEIGHT - top - bottom);
    let x_of = |x: f64| left + x / last_epoch * plot_w;
    let y_of = |y: f64| top + (high - y) / (high - low) * plot_h;

    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n",
        WIDTH / 2.0,
        escape(title)
    );
    for t in 0..=TICKS {
        let y = low + (high - low) * t as f64 / TICKS as f64;
        let x = last_epoch * t as f64 / TICKS as f64;
        out.push_str(&format!(
            "<line x1=\"{left}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\" stroke=\"#ddd\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{y:.5}</text>\n\
             <text x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{x:.0}</text>\n",
            left + plot_w,
            left - 6.0,
            y_of(y) + 4.0,
            top + plot_h + 18.0,
            py = y_of(y),
            px = x_of(x),
        ));
    }
    out.push_str(&format!(
        "<rect x=\"{left}\" y=\"{top}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"none\" stroke=\"black\"/>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">epoch</text>\n\
         <text x=\"16\" y=\"{:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {:.1})\">loss</text>\n",
        left + plot_w / 2.0,
        HEIGHT - 12.0,
        top + plot_h / 2.0,
        top + plot_h / 2.0
    ));
    for (n, (name, colour, points)) in series.iter().enumerate() {
        let path: Vec<String> =
            points.iter().map(|&(x, y)| format!("{:.1},{:.1}", x_of(x), y_of(y))).collect();
        let legend_y = top + 16.0 + 18.0 * n as f64;
        out.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n\
             <line x1=\"{:.1}\" y1=\"{legend_y:.1}\" x2=\"{:.1}\" y2=\"{legend_y:.1}\" stroke=\"{colour}\" \
             stroke-width=\"2\"/>\n<text x=\"{:.1}\" y=\"{:.1}\">{name}</text>\n",
            path.join(" "),
            left + plot_w - 110.0,
            left + plot_w - 90.0,
            left + plot_w - 84.0,
            legend_y + 4.0
        ));
    }
    out.push_str("</svg>\n");
    out
}

/// `text` with XML's special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history() -> Vec<EpochLoss> {
        (0..4)
            .map(|e| EpochLoss {
                epoch: e,
                lr: 1e-3,
                train: 0.1 / (e + 1) as f64,
                validation: 0.12 / (e + 1) as f64,
                seconds: 1.5,
                speed: 1000.0,
            })
            .collect()
    }

    #[test]
    fn the_csv_has_a_line_per_epoch() {
        let text = csv(&history());
        assert_eq!(text.lines().count(), 5);
        assert!(text.starts_with("epoch,lr,train,validation"));
        assert!(text.contains("\n3,1e-3,0.02500000,0.03000000,1.50,1000\n"), "{text}");
    }

    #[test]
    fn the_svg_draws_both_curves_inside_the_plot() {
        let text = svg(&history(), "a <net>");
        assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
        assert!(text.contains("a &lt;net&gt;"));
        assert_eq!(text.matches("<polyline").count(), 2);
        let (left, right, top, bottom) = MARGIN;
        for points in text.split("points=\"").skip(1) {
            let points = &points[..points.find('"').unwrap()];
            assert_eq!(points.split(' ').count(), 4);
            for p in points.split(' ') {
                let (x, y) = p.split_once(',').unwrap();
                let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
                assert!((left..=WIDTH - right).contains(&x) && (top..=HEIGHT - bottom).contains(&y), "{p}");
            }
        }
        let no_validation: Vec<EpochLoss> =
            history().iter().map(|e| EpochLoss { validation: 0.0, ..*e }).collect();
        assert_eq!(svg(&no_validation, "t").matches("<polyline").count(), 1);
    }
}
