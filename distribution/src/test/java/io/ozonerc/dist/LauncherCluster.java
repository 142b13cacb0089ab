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

package io.ozonerc.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.ozonerc.testsupport.LoopbackPorts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * SCM and OM of an {@link OzoneHome}, each started and stopped by that home's own {@code bin/ozone}, as an operator
 * runs them: {@code ozone scm --init}, {@code ozone --daemon start scm}, {@code ozone om --init},
 * {@code ozone --daemon start om}, {@code ozone --daemon stop om|scm}. So the OM's classpath and main class are
 * whatever the home's launcher (the stand-in for the 2.2.0 one, see {@link OzoneHome}) makes of it, with the hook in
 * its conf dir.
 *
 * <p>Everything the processes write (data, logs, pid files, the JVM's class-loading log) goes to a working folder
 * outside the home, which must stay byte for byte as the install left it. Each JVM logs the source of every class
 * it loads ({@code -Xlog:class+load}) to {@code <name>-classes-<pid>.log}: that says which jar the running OM took
 * each class from.
 */
final class LauncherCluster implements AutoCloseable {
  private static final int PORTS = 14;
  private static final int START_TIMEOUT_S = 150;

  private final Path home;
  private final Path work;
  private final Map<String, Integer> ports = new LinkedHashMap<>();
  private final Thread reaper = new Thread(this::killAll);

  LauncherCluster(Path home, Path work) throws IOException {
    this.home = home;
    this.work = work;
    Files.createDirectories(work.resolve("logs"));
    Files.createDirectories(work.resolve("pids"));
    int base = freePortBlock();
    String[] names = {"scm.client", "scm.block", "scm.datanode", "scm.http", "scm.https", "scm.ratis", "scm.grpc",
        "scm.security", "om.rpc", "om.http", "om.https", "om.ratis"};
    for (int i = 0; i < names.length; i++) {
      ports.put(names[i], base + i);
    }
    Runtime.getRuntime().addShutdownHook(reaper);
  }

  /** ozone-site.xml for SCM and OM on loopback, in the home's etc/hadoop (part of the layout before install). */
  static void writeSite(Path home, Map<String, Integer> ports, Path data) throws IOException {
    String h = "127.0.0.1";
    Map<String, String> p = new LinkedHashMap<>();
    p.put("ozone.metadata.dirs", data.resolve("meta").toString());
    p.put("ozone.scm.names", h + ":" + ports.get("scm.datanode"));
    p.put("ozone.scm.client.address", h + ":" + ports.get("scm.client"));
    p.put("ozone.scm.client.bind.host", h);
    p.put("ozone.scm.block.client.address", h + ":" + ports.get("scm.block"));
    p.put("ozone.scm.block.client.bind.host", h);
    p.put("ozone.scm.datanode.address", h + ":" + ports.get("scm.datanode"));
    p.put("ozone.scm.datanode.bind.host", h);
    p.put("ozone.scm.http-address", h + ":" + ports.get("scm.http"));
    p.put("ozone.scm.http-bind-host", h);
    p.put("ozone.scm.https-address", h + ":" + ports.get("scm.https"));
    p.put("ozone.scm.https-bind-host", h);
    p.put("ozone.scm.security.service.address", h + ":" + ports.get("scm.security"));
    p.put("ozone.scm.security.service.bind.host", h);
    p.put("ozone.scm.ratis.port", ports.get("scm.ratis").toString());
    p.put("ozone.scm.grpc.port", ports.get("scm.grpc").toString());
    p.put("ozone.scm.db.dirs", data.resolve("scm/db").toString());
    p.put("ozone.scm.ha.ratis.storage.dir", data.resolve("scm/ratis").toString());
    p.put("ozone.scm.ha.ratis.snapshot.dir", data.resolve("scm/ratis-snapshot").toString());
    p.put("ozone.scm.ha.ratis.server.rpc.first-election.timeout", "1s");
    p.put("ozone.om.address", h + ":" + ports.get("om.rpc"));
    p.put("ozone.om.http-address", h + ":" + ports.get("om.http"));
    p.put("ozone.om.http-bind-host", h);
    p.put("ozone.om.https-address", h + ":" + ports.get("om.https"));
    p.put("ozone.om.https-bind-host", h);
    p.put("ozone.om.ratis.port", ports.get("om.ratis").toString());
    p.put("ozone.om.ha.raft.grpc.server.host", h);
    p.put("ozone.om.db.dirs", data.resolve("om/db").toString());
    p.put("ozone.om.ratis.storage.dir", data.resolve("om/ratis").toString());
    p.put("ozone.om.ratis.snapshot.dir", data.resolve("om/ratis-snapshot").toString());
    p.put("ozone.om.snapshot.diff.db.dir", data.resolve("om/snapdiff").toString());
    p.put("ozone.om.s3.grpc.server_enabled", "false");
    p.put("ozone.om.range.compaction.service.enabled", "true");
    p.put("ozone.om.range.compaction.interval", "1s");
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    p.forEach((k, v) -> xml.append("  <property><name>").append(k).append("</name><value>").append(v)
        .append("</value></property>\n"));
    xml.append("</configuration>\n");
    Files.writeString(home.resolve("etc/hadoop/ozone-site.xml"), xml.toString());
  }

  Map<String, Integer> ports() {
    return ports;
  }

  Path work() {
    return work;
  }

  /** {@code bin/ozone ARGS}; output returned, a non-zero exit fails. */
  String ozone(int timeoutSeconds, String... args) throws Exception {
    String[] argv = new String[args.length + 2];
    argv[0] = "bash";
    argv[1] = home.resolve("bin/ozone").toString();
    System.arraycopy(args, 0, argv, 2, args.length);
    Map<String, String> env = new HashMap<>();
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("OZONE_LOG_DIR", work.resolve("logs").toString());
    env.put("OZONE_PID_DIR", work.resolve("pids").toString());
    // C1 only: these JVMs live a minute; start-up time matters, peak speed does not.
    env.put("OZONE_OM_OPTS", "-Xmx768m -XX:TieredStopAtLevel=1 -Xlog:class+load=info:file="
        + work.resolve("om-classes-%p.log"));
    env.put("OZONE_SCM_OPTS", "-Xmx512m -XX:TieredStopAtLevel=1 -Xlog:class+load=info:file="
        + work.resolve("scm-classes-%p.log"));
    env.put("OZONE_STOP_TIMEOUT", "60");
    ReleaseArchive.Result r = ReleaseArchive.run(work, env, timeoutSeconds, argv);
    assertEquals(0, r.exit(), "ozone " + String.join(" ", args) + ":\n" + r.output() + tail(args));
    return r.output();
  }

  private String tail(String[] args) {
    try (var logs = Files.list(work.resolve("logs"))) {
      StringBuilder sb = new StringBuilder();
      for (Path log : logs.toList()) {
        var lines = Files.readAllLines(log);
        sb.append("\n--- ").append(log.getFileName()).append(" (last 40 lines)\n")
            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
      }
      return sb.toString();
    } catch (IOException e) {
      return "\n(no logs: " + e + ")";
    }
  }

  /** Starts SCM (initialising it the first time) and waits until it serves. Returns the launcher's output. */
  String startScm(boolean init) throws Exception {
    if (init) {
      ozone(START_TIMEOUT_S, "scm", "--init");
    }
    String out = ozone(60, "--daemon", "start", "scm");
    waitFor("scm", "HTTP on :" + ports.get("scm.http") + " and RPC on :" + ports.get("scm.client"),
        () -> http("http://127.0.0.1:" + ports.get("scm.http") + "/jmx").isPresent()
            && tcpOpen(ports.get("scm.client")));
    return out;
  }

  /**
   * Starts the OM (initialising it the first time) and waits until it serves RPC and /prom, and, if
   * {@code withService}, until /prom shows the service's metrics.
   */
  String startOm(boolean init, boolean withService) throws Exception {
    if (init) {
      ozone(START_TIMEOUT_S, "om", "--init");
    }
    String out = ozone(60, "--daemon", "start", "om");
    waitFor("om", "RPC on :" + ports.get("om.rpc") + " and " + (withService ? "range_compaction_rounds_run on " : "")
        + "/prom", () -> tcpOpen(ports.get("om.rpc")) && http(promUrl())
            .filter(body -> !withService || ("\n" + body).contains("\nrange_compaction_rounds_run")).isPresent());
    return out;
  }

  String promUrl() {
    return "http://127.0.0.1:" + ports.get("om.http") + "/prom";
  }

  void stop(String name) throws Exception {
    ozone(90, "--daemon", "stop", name);
  }

  /**
   * The OM's log file (the daemon's log4j output, ozone-USER-om-HOST.log in the logs folder) as it is now; every
   * start of the OM appends to it.
   */
  String omLog() throws IOException {
    String prefix = "ozone-" + System.getProperty("user.name") + "-om-";
    try (var logs = Files.list(work.resolve("logs"))) {
      List<Path> found = logs.filter(p -> p.getFileName().toString().startsWith(prefix)
          && p.getFileName().toString().endsWith(".log")).toList();
      assertEquals(1, found.size(), "one OM log file: " + found);
      return Files.readString(found.get(0));
    }
  }

  /** Pid of the running daemon, from the launcher's pid file. */
  long pid(String name) throws IOException {
    Path f = work.resolve("pids/ozone-" + System.getProperty("user.name") + "-" + name + ".pid");
    return Long.parseLong(Files.readString(f).trim());
  }

  /** The class-loading log of the process {@code name} with this pid. */
  Path classLog(String name, long pid) {
    return work.resolve(name + "-classes-" + pid + ".log");
  }

  private void waitFor(String name, String what, BooleanSupplier ready) throws Exception {
    long pid = pid(name);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_S);
    while (!ready.getAsBoolean()) {
      if (ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true)) {
        fail(name + " (pid " + pid + ") exited while waiting for " + what + tail(new String[0]));
      }
      if (System.nanoTime() > deadline) {
        fail(name + ": no " + what + " after " + START_TIMEOUT_S + " s" + tail(new String[0]));
      }
      Thread.sleep(500);
    }
  }

  static Optional<String> http(String url) {
    try {
      HttpClient c = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      HttpResponse<String> r = c.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? Optional.of(r.body()) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static boolean tcpOpen(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Kills whatever daemon of ours is still running (pid files of this cluster only). */
  private void killAll() {
    try (var pids = Files.list(work.resolve("pids"))) {
      for (Path f : pids.toList()) {
        long pid = Long.parseLong(Files.readString(f).trim());
        ProcessHandle.of(pid).ifPresent(p -> {
          p.destroy();
          try {
            p.onExit().get(30, TimeUnit.SECONDS);
          } catch (Exception e) {
            p.destroyForcibly();
          }
        });
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("LauncherCluster cleanup: " + e);
    }
  }

  @Override
  public void close() {
    killAll();
    Runtime.getRuntime().removeShutdownHook(reaper);
  }

  /** A block of {@value #PORTS} consecutive ports free on loopback now (other clusters may run on this machine). */
  static int freePortBlock() throws IOException {
    return LoopbackPorts.freeBlock(PORTS);
  }
}
