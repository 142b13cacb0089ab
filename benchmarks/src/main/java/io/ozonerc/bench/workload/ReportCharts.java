/*
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.ozonerc.bench.workload;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The PNG charts of a {@link Report}: one question each, one colour per policy in every chart. */
public final class ReportCharts {

  /** Distinct, colour-blind-safe colours per policy (Okabe-Ito). */
  private static final Map<String, Color> COLOURS = Map.of(
      "none", new Color(0xD55E00), "full", new Color(0x0072B2), "reference", new Color(0xE69F00),
      "range", new Color(0x009E73), "ideal", new Color(0x555555), "off", new Color(0xD55E00),
      WorkloadRunner.IDEAL_LOADED, new Color(0x999999),
      HintsPolicy.HINTS, new Color(0xCC79A7), HintsPolicy.RANGE_HINTS, new Color(0x56B4E9));

  private ReportCharts() {
  }

  /** One question: how fast is a list under each policy? Bars of p50, mean and p99 (median over repeats). */
  static void latencyBars(Report report, Path file) throws IOException {
    CategoryChart chart = new CategoryChartBuilder().width(1000).height(520)
        .title("List latency per policy (ms, whole run; ideal is the floor)").xAxisTitle("policy")
        .yAxisTitle("ms").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
    chart.getStyler().setLabelsFontColor(Color.BLACK);
    chart.getStyler().setDecimalPattern("#,##0.0");
    chart.getStyler().setSeriesColors(new Color[] {new Color(0x56B4E9), new Color(0x0072B2), new Color(0xD55E00)});
    List<String> names = new ArrayList<>();
    List<Double> p50 = new ArrayList<>();
    List<Double> avg = new ArrayList<>();
    List<Double> p99 = new ArrayList<>();
    for (String p : report.policies()) {
      if (report.all(p) != null) {
        names.add(p);
        p50.add(report.stat(p, r -> r.list().getValueAtPercentile(50) / 1e6).median());
        avg.add(report.stat(p, r -> Report.mean(r) / 1e6).median());
        p99.add(report.stat(p, r -> Report.p99(r) / 1e6).median());
      }
    }
    if (names.isEmpty()) {
      names.add("no data");
      p50.add(0.0);
      avg.add(0.0);
      p99.add(0.0);
    }
    chart.addSeries("p50", names, p50);
    chart.addSeries("mean", names, avg);
    chart.addSeries("p99", names, p99);
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  /**
   * One question over the operations done: a time-series value per policy (first run of each), lightly smoothed
   * (moving average of 5 sample intervals), as {@link #smallMultiples}.
   */
  static void overOps(Report report, Path file, String chartTitle, String yTitle,
      ToDoubleFunction<RunResult.Sample> y) throws IOException {
    Map<String, double[][]> data = new LinkedHashMap<>();
    for (String p : report.policies()) {
      RunResult r = report.get(p);
      if (r == null) {
        continue;
      }
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (RunResult.Sample s : r.series()) {
        double v = y.applyAsDouble(s);
        if (!Double.isNaN(v)) {
          xs.add((double) s.opsDone());
          ys.add(v);
        }
      }
      double[] smooth = movingAverage(ys.stream().mapToDouble(Double::doubleValue).toArray(), 5);
      data.put(p, new double[][] {xs.stream().mapToDouble(Double::doubleValue).toArray(), smooth});
    }
    double xMax = 1;
    for (String p : report.policies()) {
      RunResult r = report.get(p);
      for (RunResult.Sample s : r == null ? List.<RunResult.Sample>of() : r.series()) {
        xMax = Math.max(xMax, s.opsDone());
      }
    }
    smallMultiples(file, chartTitle, "operations done", yTitle, data, xMax);
  }

  /**
   * One small chart per series (x, y), stacked with a shared linear y axis (from 0) and a shared x axis (0 to
   * {@code xMax}) so heights and times compare directly.
   */
  static void smallMultiples(Path file, String chartTitle, String xTitle, String yTitle, Map<String, double[][]> data,
      double xMax) throws IOException {
    double yMax = 0;
    for (double[][] d : data.values()) {
      for (double v : d[1]) {
        yMax = Math.max(yMax, v);
      }
    }
    List<XYChart> charts = new ArrayList<>();
    for (Map.Entry<String, double[][]> e : data.entrySet()) {
      XYChart c = new XYChartBuilder().width(1000).height(200)
          .title(charts.isEmpty() ? chartTitle + " - " + e.getKey() : e.getKey())
          .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
      c.getStyler().setLegendVisible(false);
      c.getStyler().setYAxisMin(0.0);
      c.getStyler().setYAxisMax(yMax > 0 ? yMax * 1.05 : 1.0);
      c.getStyler().setXAxisMin(0.0);
      c.getStyler().setXAxisMax(xMax);
      c.getStyler().setXAxisDecimalPattern("#,##0");
      c.getStyler().setYAxisDecimalPattern(yMax >= 100 ? "#,##0" : "#,##0.0");
      double[] xs = e.getValue()[0].length == 0 ? new double[] {0} : e.getValue()[0];
      double[] ys = e.getValue()[1].length == 0 ? new double[] {0} : e.getValue()[1];
      XYSeries s = c.addSeries(e.getKey(), xs, ys);
      s.setMarker(SeriesMarkers.NONE);
      s.setLineColor(colour(e.getKey()));
      charts.add(c);
    }
    if (charts.isEmpty()) {
      XYChart c = new XYChartBuilder().width(1000).height(200).title(chartTitle + " - no data").build();
      c.addSeries("no data", new double[] {0}, new double[] {0});
      charts.add(c);
    }
    BitmapEncoder.saveBitmap(charts, charts.size(), 1, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  /** The chart colour of a policy (the same in every report), black for one without its own. */
  public static Color colour(String policy) {
    return COLOURS.getOrDefault(policy, Color.BLACK);
  }

  /** Trailing moving average over up to {@code window} values. */
  public static double[] movingAverage(double[] v, int window) {
    double[] out = new double[v.length];
    double sum = 0;
    for (int i = 0; i < v.length; i++) {
      sum += v[i];
      if (i >= window) {
        sum -= v[i - window];
      }
      out[i] = sum / Math.min(i + 1, window);
    }
    return out;
  }
}
