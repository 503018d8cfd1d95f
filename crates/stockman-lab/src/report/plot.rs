//! The report's SVG line plots (plotters), one per panel and measure.

use super::{algo_rank, Cell, PanelKey, Summary};
use crate::Error;
use std::collections::BTreeMap;

/// A color per algorithm, the same in every plot (`mtdf+id` is drawn in
/// MTD(f)'s color).
fn color(name: &str) -> plotters::style::RGBColor {
    use plotters::style::RGBColor;
    const PALETTE: [RGBColor; 12] = [
        RGBColor(0, 0, 0),
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
        RGBColor(80, 80, 160),
    ];
    let base = name.strip_suffix("+id").unwrap_or(name);
    let (i, _) = algo_rank(base);
    PALETTE[if base == "alphabeta" { 0 } else { 1 + i % 11 }]
}

fn plot_err<E: std::fmt::Display>(e: E) -> Error {
    Error::new(format!("plot: {e}"))
}

/// One line of a plot: an algorithm's name and its points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The algorithm (its color comes from the name).
    pub name: String,
    /// `(x, y)` points, in x order.
    pub points: Vec<(f64, f64)>,
}

/// The axes of a plot.
pub struct Axes<'a> {
    /// The caption above the chart.
    pub title: &'a str,
    /// The x axis's description.
    pub x_desc: &'a str,
    /// The y axis's description.
    pub y_desc: &'a str,
    /// The x values to label (the depths, say).
    pub xs: &'a [f64],
    /// How an x label reads.
    pub x_label: &'a dyn Fn(f64) -> String,
}

/// Draws one line per series, as SVG text: the plotter of every figure of
/// the experiments (random trees and games alike).
///
/// Series whose points are all equal (SSS\*, RecSSS\* and MT-SSS\*, as the
/// theorems say) share one line, and the legend beside the chart names
/// them together (`sss`, `= recsss`, `= mt-sss`).
pub fn plot_lines(axes: &Axes<'_>, series: &[Series]) -> Result<String, Error> {
    use plotters::prelude::*;
    // Lines with identical points are drawn once.
    // (the series sharing a line, its points)
    type Line<'a> = (Vec<&'a str>, &'a [(f64, f64)]);
    let mut groups: Vec<Line> = Vec::new();
    for s in series.iter().filter(|s| !s.points.is_empty()) {
        match groups.iter_mut().find(|(_, p)| *p == s.points.as_slice()) {
            Some((names, _)) => names.push(&s.name),
            None => groups.push((vec![&s.name], &s.points)),
        }
    }
    let (x0, x1) = axes
        .xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
    let (x0, x1) = if x0.is_finite() { (x0, x1) } else { (0.0, 1.0) };
    let ys = groups.iter().flat_map(|(_, p)| p.iter().map(|q| q.1));
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = if lo.is_finite() {
        (lo.min(0.0), hi.max(1.0) * 1.08)
    } else {
        (0.0, 1.0)
    };
    let pad = ((x1 - x0) * 0.05).max(0.3);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (820, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let (left, right) = root.split_horizontally(660);
        let mut chart = ChartBuilder::on(&left)
            .caption(axes.title, ("sans-serif", 19))
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(58)
            .build_cartesian_2d((x0 - pad)..(x1 + pad), lo..hi)
            .map_err(plot_err)?;
        // The x labels are drawn below at the given xs exactly (plotters
        // would pick its own tick positions).
        chart
            .configure_mesh()
            .x_desc(axes.x_desc)
            .y_desc(axes.y_desc)
            .x_labels(0)
            .light_line_style(WHITE)
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .draw()
            .map_err(plot_err)?;
        let tick = ("sans-serif", 13)
            .into_font()
            .into_text_style(&left)
            .pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Top,
            ));
        for &x in axes.xs {
            let (px, py) = chart.backend_coord(&(x, lo));
            left.draw(&PathElement::new(vec![(px, py), (px, py + 5)], BLACK))
                .map_err(plot_err)?;
            left.draw(&Text::new((axes.x_label)(x), (px, py + 8), tick.clone()))
                .map_err(plot_err)?;
        }
        for (names, pts) in &groups {
            let c = color(names[0]);
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))
                .map_err(plot_err)?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))
                .map_err(plot_err)?;
        }
        // The legend, beside the chart.
        let text = ("sans-serif", 14).into_font();
        let mut yk = 50;
        for (names, _) in &groups {
            let c = color(names[0]);
            right
                .draw(&PathElement::new(vec![(6, yk), (32, yk)], c.stroke_width(3)))
                .map_err(plot_err)?;
            for (k, a) in names.iter().enumerate() {
                let label = if k == 0 { a.to_string() } else { format!("= {a}") };
                right
                    .draw(&Text::new(label, (40, yk - 8), text.clone()))
                    .map_err(plot_err)?;
                yk += 20;
            }
            yk += 6;
        }
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// Draws one line per algorithm of `y(cell)` against depth, as SVG text
/// (see [`plot_lines`]).
pub fn line_plot(
    summary: &Summary,
    panel: &PanelKey,
    y_desc: &str,
    y: &dyn Fn(&Cell) -> Option<f64>,
) -> Result<String, Error> {
    let cells = &summary.panels[panel];
    let depths = summary.depths(panel);
    let mut lines: BTreeMap<usize, Vec<(f64, f64)>> = BTreeMap::new();
    for (&(a, d), c) in cells {
        // RSEARCH's rows by memory have a plot of their own ([`memory_plot`]).
        if crate::grid::rsearch_memory(&summary.algorithms[a]).is_some() {
            continue;
        }
        if let Some(v) = y(c) {
            lines.entry(a).or_default().push((d as f64, v));
        }
    }
    let series: Vec<Series> = lines
        .into_iter()
        .map(|(a, points)| Series {
            name: summary.algorithms[a].clone(),
            points,
        })
        .collect();
    let xs: Vec<f64> = depths.iter().map(|&d| d as f64).collect();
    let title = panel.title();
    let axes = Axes {
        title: &title,
        x_desc: "depth (plies)",
        y_desc,
        xs: &xs,
        x_label: &|x| format!("{x:.0}"),
    };
    plot_lines(&axes, &series)
}

/// RSEARCH's leaves against its memory at one depth of one panel, as SVG
/// text: one point per `rsearch-mM` row (mean leaves over alpha-beta's on
/// the same trees, or mean leaves without alpha-beta), with alpha-beta's,
/// SSS\*'s and GSEARCH's as flat lines for reference: the curve between
/// alpha-beta and SSS\* that memory buys. `None` with fewer than two memories.
pub fn memory_plot(summary: &Summary, panel: &PanelKey, depth: u32) -> Result<Option<String>, Error> {
    let cells = &summary.panels[panel];
    let has_ab = cells.values().any(|c| c.vs_alphabeta.is_some());
    let y = |c: &Cell| {
        if has_ab {
            c.vs_alphabeta.map(|s| s.mean)
        } else {
            Some(c.leaves.mean)
        }
    };
    let mut curve: Vec<(usize, f64)> = Vec::new();
    let mut flat: Vec<(String, f64)> = Vec::new();
    for (&(a, d), c) in cells {
        if d != depth {
            continue;
        }
        let name = &summary.algorithms[a];
        match (crate::grid::rsearch_memory(name), y(c)) {
            (Some(m), Some(v)) => curve.push((m, v)),
            (None, Some(v)) if ["alphabeta", "sss", "gsearch"].contains(&name.as_str()) => flat.push((name.clone(), v)),
            _ => {}
        }
    }
    if curve.len() < 2 {
        return Ok(None);
    }
    curve.sort_by_key(|&(m, _)| m);
    // The memories are spread evenly along the axis (they grow
    // geometrically in a useful grid) and labelled with their values.
    let xs: Vec<f64> = (0..curve.len()).map(|i| i as f64).collect();
    let mut series = vec![Series {
        name: "rsearch".to_string(),
        points: curve.iter().enumerate().map(|(i, &(_, v))| (i as f64, v)).collect(),
    }];
    for (name, v) in flat {
        series.push(Series {
            name,
            points: xs.iter().map(|&x| (x, v)).collect(),
        });
    }
    let title = format!("{}, depth {depth}", panel.title());
    let labels: Vec<usize> = curve.iter().map(|&(m, _)| m).collect();
    let axes = Axes {
        title: &title,
        x_desc: "RSEARCH memory (stored nodes)",
        y_desc: if has_ab {
            "leaves / alpha-beta's leaves"
        } else {
            "leaves"
        },
        xs: &xs,
        x_label: &|x| labels.get(x as usize).map_or(String::new(), |m| m.to_string()),
    };
    plot_lines(&axes, &series).map(Some)
}
