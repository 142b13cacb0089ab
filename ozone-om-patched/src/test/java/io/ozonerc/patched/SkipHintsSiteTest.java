package io.ozonerc.patched;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The skip hint keys as an operator sets them, in {@code ozone-site.xml}: the OM runs with the site's values, and a
 * bad value stops it in its constructor (before {@code OzoneManager.start} opens its RPC and HTTP ports), naming the
 * key and the value.
 */
class SkipHintsSiteTest {
  @TempDir
  Path work;

  @Test
  void theOmRunsWithTheSiteValues() throws Exception {
    assertEquals(List.of("started enabled=false max.entries=5"), run("false", "5"));
  }

  @Test
  void aBadSwitchStopsTheOmNamingKeyAndValue() throws Exception {
    assertEquals(List.of(
        "failed IllegalArgumentException: Invalid value for ozone.om.list.skip.hints.enabled: 'maybe' (expected true "
            + "or false)",
        "thrown in the OzoneManager constructor: true, in OzoneManager.start: false"), run("maybe", "100"));
  }

  @Test
  void aBadBoundStopsTheOmNamingKeyAndValue() throws Exception {
    assertEquals(List.of(
        "failed IllegalArgumentException: Invalid value for ozone.om.list.skip.hints.max.entries: '0' (expected a "
            + "whole number of hints per table, at least 1)",
        "thrown in the OzoneManager constructor: true, in OzoneManager.start: false"), run("true", "0"));
  }

  private List<String> run(String enabled, String maxEntries) throws Exception {
    Path conf = Files.createDirectories(work.resolve("conf"));
    Files.writeString(conf.resolve("ozone-site.xml"), """
        <?xml version="1.0"?>
        <configuration>
          <property><name>ozone.om.list.skip.hints.enabled</name><value>%s</value></property>
          <property><name>ozone.om.list.skip.hints.max.entries</name><value>%s</value></property>
        </configuration>
        """.formatted(enabled, maxEntries));
    return OmJvm.patched().withConfDir(conf).run(SkipHintsSiteOm.class, work.resolve("run"), 300);
  }
}
