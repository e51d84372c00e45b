/**
 * {@code cassette stress}: a cassandra-stress compatible load generator that runs against
 * Cassette or Apache Cassandra alike (it speaks CQL through the Java driver).
 *
 * <pre>
 * cassette stress write n=100000 -rate threads=50 -node 127.0.0.1
 * cassette stress read n=100000 -pop seq=1..100000 -rate threads=50 -node 127.0.0.1
 * cassette stress mixed 'ratio(write=1,read=3)' duration=5m -rate threads=16 fixed=2000/s
 * cassette stress user profile=blog.yaml 'ops(insert=1,singlepost=2)' n=10000
 * cassette stress write n=100000 -graph file=report.html title=boards revision=pi4-sd
 * cassette stress help -rate
 * </pre>
 *
 * <p>How it fits together: {@link io.cassette.tools.stress.StressSettingsParser} turns the
 * command line into {@link io.cassette.tools.stress.StressSettings} (each option group parsed
 * against its {@link io.cassette.tools.stress.OptionForm}s, so a bad option is named together
 * with the accepted forms); a {@link io.cassette.tools.stress.Workload} (predefined keyspace1
 * tables or a {@link io.cassette.tools.stress.UserProfile}) supplies the schema and the
 * {@link io.cassette.tools.stress.StressOperation}s; {@link io.cassette.tools.stress.StressRunner}
 * runs them on N threads (or the {@link io.cassette.tools.stress.ThreadRamp}) and
 * {@link io.cassette.tools.stress.StressMetrics} prints the interval lines and Results block
 * ({@link io.cassette.tools.stress.StressReport}), writes the HdrHistogram log, and feeds
 * {@link io.cassette.tools.stress.GraphReport}'s HTML page.
 *
 * <p>Differences from cassandra-stress: keys and values come from this tool's own generator
 * (reads validate what this tool wrote, not what cassandra-stress wrote); the GC columns come
 * from Cassandra's GCInspector over JMX (-port jmx=, 7199) and are zero against Cassette, which
 * has no JMX (cassandra-stress prints the same zeros when JMX is unreachable); -mode compression
 * other than none, -insert, -tokenrange, -transport, -sendto and the thrift-era options are not
 * accepted.
 */
package io.cassette.tools.stress;
