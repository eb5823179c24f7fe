#pragma once
// A bar chart as a standalone SVG file: no plotting library on a cluster node, and a browser or
// any image viewer shows it.

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace eagle::perf {

struct BarChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<std::pair<std::string, double>> bars;  ///< label, value (>= 0)
};

inline std::string svg_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

/// The chart as SVG text, 560 x 360, value labels above the bars.
inline std::string to_svg(const BarChart& chart) {
  const double width = 560, height = 360, left = 70, right = 20, top = 50, bottom = 60;
  const double plot_w = width - left - right, plot_h = height - top - bottom;
  double top_value = 0;
  for (const auto& bar : chart.bars) top_value = std::max(top_value, bar.second);
  if (top_value <= 0) top_value = 1;
  const double scale = plot_h / (top_value * 1.1);
  const double slot = chart.bars.empty() ? plot_w : plot_w / static_cast<double>(chart.bars.size());

  std::string svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"560\" height=\"360\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  auto text = [&](double x, double y, const std::string& s, const std::string& extra = "") {
    svg += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" text-anchor=\"middle\"" + extra +
           ">" + svg_escape(s) + "</text>\n";
  };
  text(width / 2, 28, chart.title, " font-size=\"14\"");
  text(left + plot_w / 2, height - 18, chart.x_label);
  text(18, top + plot_h / 2, chart.y_label, " transform=\"rotate(-90 18 " + std::to_string(top + plot_h / 2) + ")\"");
  svg += "<line x1=\"" + std::to_string(left) + "\" y1=\"" + std::to_string(top + plot_h) + "\" x2=\"" +
         std::to_string(left + plot_w) + "\" y2=\"" + std::to_string(top + plot_h) + "\" stroke=\"black\"/>\n";
  for (std::size_t i = 0; i < chart.bars.size(); ++i) {
    const auto& [label, value] = chart.bars[i];
    const double h = value * scale, x = left + slot * (static_cast<double>(i) + 0.15), w = slot * 0.7;
    svg += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(top + plot_h - h) + "\" width=\"" +
           std::to_string(w) + "\" height=\"" + std::to_string(h) + "\" fill=\"#2ca02c\"/>\n";
    const double shown = std::round(value * 100) / 100;
    text(x + w / 2, top + plot_h - h - 4,
         shown == std::floor(shown) ? std::to_string(static_cast<long long>(shown)) : std::to_string(shown));
    text(x + w / 2, top + plot_h + 16, label);
  }
  return svg + "</svg>\n";
}

/// Charts from to_svg one under the other in one SVG file (nested svg elements).
inline std::string stack_svgs(const std::vector<std::string>& charts) {
  const std::string open = "<svg xmlns=\"http://www.w3.org/2000/svg\" ";
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"560\" height=\"" +
                    std::to_string(360 * std::max<std::size_t>(1, charts.size())) + "\">\n";
  for (std::size_t i = 0; i < charts.size(); ++i) {
    std::string chart = charts[i];
    if (chart.compare(0, open.size(), open) == 0)
      chart.replace(0, open.size(), "<svg y=\"" + std::to_string(360 * i) + "\" ");
    svg += chart;
  }
  return svg + "</svg>\n";
}

/// Writes `content` to `path`, or throws naming the path.
inline void write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
  out << content;
  if (!out.flush()) throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace eagle::perf
