package io.cassette.tools.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StressSettingsParserTest {

  private static StressSettings parse(String line) {
    return StressSettingsParser.parse(line.split(" "));
  }

  @Test
  void countedWriteHasCassandraStressDefaults() {
    StressSettings s = parse("write n=20000");
    assertThat(s.command().type()).isEqualTo(Command.WRITE);
    assertThat(s.command().count()).isEqualTo(20000);
    assertThat(s.command().consistency()).isEqualTo("LOCAL_ONE");
    assertThat(s.command().truncate()).isEqualTo(StressSettings.Truncate.NEVER);
    assertThat(s.command().noWarmup()).isFalse();
    assertThat(s.rate().threads()).isEqualTo(200);
    assertThat(s.rate().isRamp()).isFalse();
    assertThat(s.population().isSequential()).isTrue();
    assertThat(s.population().first()).isEqualTo(1);
    assertThat(s.population().last()).isEqualTo(20000);
    assertThat(s.columns().names()).containsExactly("C0", "C1", "C2", "C3", "C4");
    assertThat(s.columns().size().min()).isEqualTo(34);
    assertThat(s.columns().size().max()).isEqualTo(34);
    assertThat(s.schema().keyspace()).isEqualTo("keyspace1");
    assertThat(s.schema().strategy()).isEqualTo("org.apache.cassandra.locator.SimpleStrategy");
    assertThat(s.schema().replication()).isEqualTo(Map.of("replication_factor", "1"));
    assertThat(s.mode().prepared()).isTrue();
    assertThat(s.nodes()).containsExactly("localhost");
    assertThat(s.nativePort()).isEqualTo(9042);
    assertThat(s.log().intervalMillis()).isEqualTo(1000);
    assertThat(s.graph().enabled()).isFalse();
    assertThat(s.errors().tries()).isEqualTo(10);
  }

  @Test
  void readWithoutRateRampsAndSamplesAGaussian() {
    StressSettings s = parse("read n=1000");
    assertThat(s.rate().isRamp()).isTrue();
    assertThat(s.rate().auto()).isTrue();
    assertThat(s.rate().minThreads()).isEqualTo(4);
    assertThat(s.rate().maxThreads()).isEqualTo(1000);
    assertThat(s.population().isSequential()).isFalse();
    assertThat(s.population().distribution().toString()).isEqualTo("gaussian(1..1000)");
    assertThat(s.population().distribution().min()).isEqualTo(1);
    assertThat(s.population().distribution().max()).isEqualTo(1000);
  }

  @Test
  void durationAndUncertaintyForms() {
    StressSettings d = parse("write duration=2m -rate threads=4");
    assertThat(d.command().count()).isEqualTo(-1);
    assertThat(d.command().durationSeconds()).isEqualTo(120);
    StressSettings u = parse("read err<0.05 n>10 n<50");
    assertThat(u.command().targetUncertainty()).isEqualTo(0.05);
    assertThat(u.command().minMeasurements()).isEqualTo(10);
    assertThat(u.command().maxMeasurements()).isEqualTo(50);
    assertThat(u.population().distribution().max()).isEqualTo(1_000_000);
  }

  @Test
  void countSuffixesAndCommandFlags() {
    StressSettings s = parse("counter_write n=2k no-warmup cl=quorum truncate=once");
    assertThat(s.command().count()).isEqualTo(2000);
    assertThat(s.command().noWarmup()).isTrue();
    assertThat(s.command().consistency()).isEqualTo("QUORUM");
    assertThat(s.command().truncate()).isEqualTo(StressSettings.Truncate.ONCE);
    assertThat(s.command().type().table).isEqualTo("counter1");
  }

  @Test
  void mixedRatiosToleratesSpacesInsideParentheses() {
    StressSettings s = StressSettingsParser.parse("mixed", "ratio(", "write=1,", "read=3", ")", "n=100");
    assertThat(s.command().ratios()).containsExactly(Map.entry("WRITE", 1.0), Map.entry("READ", 3.0));
    assertThat(s.command().clustering().toString()).isEqualTo("GAUSSIAN(1..10)");
    StressSettings d = parse("mixed n=100");
    assertThat(d.command().ratios()).containsOnlyKeys("READ", "WRITE");
  }

  @Test
  void rateForms() {
    StressSettings fixed = parse("read n=10 -rate threads=8 fixed=500/s");
    assertThat(fixed.rate().threads()).isEqualTo(8);
    assertThat(fixed.rate().opsPerSecond()).isEqualTo(500);
    assertThat(fixed.rate().fixedRate()).isTrue();
    StressSettings throttle = parse("read n=10 -rate threads=8 throttle=300/s");
    assertThat(throttle.rate().opsPerSecond()).isEqualTo(300);
    assertThat(throttle.rate().fixedRate()).isFalse();
    StressSettings ramp = parse("read n=10 -rate threads>=2 threads<=40");
    assertThat(ramp.rate().isRamp()).isTrue();
    assertThat(ramp.rate().minThreads()).isEqualTo(2);
    assertThat(ramp.rate().maxThreads()).isEqualTo(40);
    assertThat(ramp.rate().auto()).isFalse();
    assertThat(parse("read n=10 -rate threads>=2 auto").rate().auto()).isTrue();
  }

  @Test
  void populationColumnsSchemaModeLogGraph() {
    StressSettings s = parse("write n=10 -pop seq=5..1k no-wrap -col n=FIXED(3) size=uniform(10..20)"
        + " -schema replication(factor=3) keyspace=ks2 compression=LZ4Compressor"
        + " -mode native cql3 protocolVersion=4 user=u password=p -node 10.0.0.1,10.0.0.2 -port native=9043"
        + " -log interval=500ms file=out.log hdrfile=h.hdr -graph file=r.html title=T revision=R1");
    assertThat(s.population().first()).isEqualTo(5);
    assertThat(s.population().last()).isEqualTo(1000);
    assertThat(s.population().wrap()).isFalse();
    assertThat(s.columns().names()).containsExactly("C0", "C1", "C2");
    assertThat(s.columns().size().min()).isEqualTo(10);
    assertThat(s.columns().size().max()).isEqualTo(20);
    assertThat(s.schema().keyspace()).isEqualTo("ks2");
    assertThat(s.schema().replication()).isEqualTo(Map.of("replication_factor", "3"));
    assertThat(s.schema().compression()).isEqualTo("LZ4Compressor");
    assertThat(s.mode().protocolVersion()).isEqualTo(4);
    assertThat(s.mode().prepared()).isFalse(); // as cassandra-stress: -mode without "prepared"
    assertThat(s.mode().user()).isEqualTo("u");
    assertThat(s.nodes()).containsExactly("10.0.0.1", "10.0.0.2");
    assertThat(s.nativePort()).isEqualTo(9043);
    assertThat(s.log().intervalMillis()).isEqualTo(500);
    assertThat(s.log().file()).isEqualTo("out.log");
    assertThat(s.log().hdrFile()).isEqualTo("h.hdr");
    assertThat(s.graph().file()).isEqualTo("r.html");
    assertThat(s.graph().title()).isEqualTo("T");
    assertThat(s.graph().revision()).isEqualTo("R1");
    assertThat(s.graph().operation()).isEqualTo("WRITE");
  }

  @Test
  void networkTopologyReplicationKeepsTheDatacenterFactors() {
    StressSettings s = parse("write n=1 -schema replication(strategy=NetworkTopologyStrategy,dc1=3)");
    assertThat(s.schema().strategy()).isEqualTo("org.apache.cassandra.locator.NetworkTopologyStrategy");
    assertThat(s.schema().replication()).isEqualTo(Map.of("dc1", "3"));
  }

  @Test
  void populationDistribution() {
    StressSettings s = parse("read n=10 -pop dist=UNIFORM(1..500)");
    assertThat(s.population().isSequential()).isFalse();
    assertThat(s.population().distribution().max()).isEqualTo(500);
  }

  @Test
  void userCommandNeedsProfileAndOps() {
    StressSettings s = parse("user profile=p.yaml ops(insert=1,q1=2) n=10");
    assertThat(s.command().profile()).isEqualTo("p.yaml");
    assertThat(s.command().ratios()).containsExactly(Map.entry("insert", 1.0), Map.entry("q1", 2.0));
    assertThatThrownBy(() -> parse("user ops(insert=1) n=10"))
        .isInstanceOf(ArgumentException.class).hasMessageContaining("missing profile=");
  }

  @Test
  void unknownOptionIsNamedWithTheAcceptedForms() {
    assertThatThrownBy(() -> parse("write n=10 -rate thread=5"))
        .isInstanceOf(ArgumentException.class)
        .hasMessageContaining("unknown option 'thread=5'")
        .hasMessageContaining("-rate threads=N [throttle=N/s] [fixed=N/s]")
        .hasMessageContaining("-rate [threads>=N] [threads<=N] [auto]");
  }

  @Test
  void malformedValuesAreNamed() {
    assertThatThrownBy(() -> parse("write n=lots"))
        .isInstanceOf(ArgumentException.class)
        .hasMessageContaining("invalid value 'lots' for 'n='")
        .hasMessageContaining("write n=N [no-warmup]");
    assertThatThrownBy(() -> parse("write n=10 -rate threads=5 fixed=10"))
        .hasMessageContaining("invalid value '10' for 'fixed=' (expected N/s)");
    assertThatThrownBy(() -> parse("write n=10 -col size=huge(3)"))
        .hasMessageContaining("Illegal distribution type 'huge'");
    assertThatThrownBy(() -> parse("write n=10 -rate threads=5 fixed=10/s throttle=5/s"))
        .hasMessageContaining("can't have both fixed and throttle set");
    assertThatThrownBy(() -> parse("write n=10 -log interval=0"))
        .hasMessageContaining("Log interval must be greater than zero");
  }

  @Test
  void unknownCommandGroupAndDuplicatesAreRejected() {
    assertThatThrownBy(() -> parse("wrote n=10")).hasMessageContaining("Unknown command 'wrote'");
    assertThatThrownBy(() -> parse("write n=10 -bogus 1")).hasMessageContaining("Unknown option group '-bogus'");
    assertThatThrownBy(() -> parse("write n=10 -rate threads=1 -rate threads=2"))
        .hasMessageContaining("-rate is defined multiple times");
    assertThatThrownBy(() -> parse("mixed ratio(write=1,raed=3) n=10"))
        .hasMessageContaining("Invalid ratio(...) operation 'raed'");
    assertThatThrownBy(() -> parse("user profile=p.yaml ops(insert=1) n=1 -schema keyspace=x"))
        .hasMessageContaining("-schema can only be provided with predefined operations");
  }

  @Test
  void mainReportsBadArgumentsWithStatusOne() {
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    int status = StressMain.run(new String[] {"write", "n=10", "-pop", "seq=9..1"},
        new java.io.PrintStream(new java.io.ByteArrayOutputStream()), new java.io.PrintStream(err));
    assertThat(status).isEqualTo(1);
    assertThat(err.toString()).contains("Invalid -pop seq=9..1: first > last").contains("-pop seq=A..B");
  }

  @Test
  void repairJoinsSplitParentheses() {
    assertThat(StressSettingsParser.repair("-schema", "replication(", "factor=3", ")", "keyspace", "=", "k"))
        .isEqualTo(List.of("-schema", "replication(factor=3)", "keyspace=k"));
  }
}
