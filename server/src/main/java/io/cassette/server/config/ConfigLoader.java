package io.cassette.server.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Resolves the configuration from its four sources, highest precedence first: flags, then
 * environment variables {@code CASSETTE_<KEY>}, then the YAML file, then defaults. Every
 * value is validated where it was written, so an error names the key, the value, the place
 * (file and line, variable or flag) and what is allowed. Unknown keys are warnings.
 */
public final class ConfigLoader {

  /** One value as written, with where it was written. */
  private record Raw(String text, String source) {}

  /** Environment variable for the seed list (seed_provider). */
  public static final String SEEDS_VARIABLE = "CASSETTE_SEEDS";

  private ConfigLoader() {}

  /**
   * @param file  the YAML file, or null for none
   * @param env   the process environment (only {@code CASSETTE_*} variables are read)
   * @param flags values from the command line by key name, each with the flag that set it
   *              as its source, e.g. {@code native_transport_port -> ("9043", "flag --cql-port")}
   */
  public static Config load(Path file, Map<String, String> env, Map<String, FlagValue> flags) {
    List<String> warnings = new ArrayList<>();
    Map<String, Raw> raw = new LinkedHashMap<>();
    if (file != null) {
      readFile(file, raw, warnings);
    }
    for (ConfigKey key : ConfigKeys.all()) {
      String value = env.get(key.environmentVariable());
      if (value != null) {
        raw.put(key.name(), new Raw(value, "environment variable " + key.environmentVariable()));
      }
    }
    // CASSETTE_SEEDS is the short name operators expect for seed_provider's seed list.
    String seeds = env.get(SEEDS_VARIABLE);
    if (seeds != null && !env.containsKey("CASSETTE_SEED_PROVIDER")) {
      raw.put(ConfigKeys.SEED_PROVIDER, new Raw(seeds, "environment variable " + SEEDS_VARIABLE));
    }
    for (Map.Entry<String, String> e : env.entrySet()) {
      if (e.getKey().startsWith("CASSETTE_") && !isKnownVariable(e.getKey())
          && !e.getKey().equals(SEEDS_VARIABLE)
          && !e.getKey().equals("CASSETTE_JAVA_OPTS") && !e.getKey().equals("CASSETTE_HOME")
          && !e.getKey().equals("CASSETTE_CONF")) {
        warnings.add("Unknown environment variable " + e.getKey() + ": ignored");
      }
    }
    for (Map.Entry<String, FlagValue> e : flags.entrySet()) {
      if (ConfigKeys.get(e.getKey()) == null) {
        throw new ConfigException("Unknown configuration key '" + e.getKey() + "' in "
            + e.getValue().flag());
      }
      raw.put(e.getKey(), new Raw(e.getValue().text(), e.getValue().flag()));
    }

    Map<String, Object> values = new HashMap<>();
    Map<String, String> sources = new HashMap<>();
    for (ConfigKey key : ConfigKeys.all()) {
      Raw r = raw.get(key.name());
      if (r != null) {
        values.put(key.name(), parse(key, r));
        sources.put(key.name(), r.source());
      } else if (key.defaultText() != null) {
        values.put(key.name(), parse(key, new Raw(key.defaultText(), "default")));
        sources.put(key.name(), "default");
      }
    }
    return new Config(values, sources, warnings);
  }

  /** A value given on the command line, and the flag that gave it (for messages). */
  public record FlagValue(String text, String flag) {}

  private static boolean isKnownVariable(String variable) {
    for (ConfigKey key : ConfigKeys.all()) {
      if (key.environmentVariable().equals(variable)) {
        return true;
      }
    }
    return false;
  }

  private static Object parse(ConfigKey key, Raw r) {
    try {
      return key.type().parse(r.text(), key.choices());
    } catch (IllegalArgumentException e) {
      throw new ConfigException("Invalid value for " + key.name() + ": '" + r.text() + "' in "
          + r.source() + " (" + e.getMessage() + "); expected " + key.allowed());
    }
  }

  private static void readFile(Path file, Map<String, Raw> raw, List<String> warnings) {
    Node root;
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      root = new Yaml(new LoaderOptions()).compose(reader);
    } catch (MarkedYAMLException e) {
      throw new ConfigException("Cannot parse " + file + " line "
          + (e.getProblemMark().getLine() + 1) + ": " + e.getProblem());
    } catch (YAMLException e) {
      throw new ConfigException("Cannot parse " + file + ": " + e.getMessage());
    } catch (IOException e) {
      throw new ConfigException("Cannot read configuration file " + file + ": " + e);
    }
    if (root == null) {
      return; // an empty file (or only comments) sets nothing
    }
    if (!(root instanceof MappingNode mapping)) {
      throw new ConfigException(file + " line " + line(root)
          + ": expected a mapping of keys to values");
    }
    for (NodeTuple tuple : withSections(mapping.getValue())) {
      Node keyNode = tuple.getKeyNode();
      String name = keyNode instanceof ScalarNode s ? s.getValue() : String.valueOf(keyNode);
      String where = file + " line " + line(keyNode);
      ConfigKey key = ConfigKeys.get(name);
      if (key == null) {
        warnings.add("Unknown key '" + name + "' in " + where + ": ignored");
        continue;
      }
      Node valueNode = tuple.getValueNode();
      if (valueNode instanceof ScalarNode s && s.getTag().equals(Tag.NULL)) {
        continue; // "key:" with no value keeps the default, as Cassandra does
      }
      if (key.name().equals(ConfigKeys.SEED_PROVIDER) && !(valueNode instanceof ScalarNode)) {
        // Cassandra's nested form: - class_name: ...  parameters: - seeds: "h1,h2"
        String seedList = nestedSeeds(valueNode);
        if (seedList != null) {
          raw.put(name, new Raw(seedList, file + " line " + line(valueNode)));
        }
        continue;
      }
      String text;
      if (valueNode instanceof ScalarNode s) {
        text = s.getValue();
      } else if (valueNode instanceof SequenceNode seq && key.type() == ValueType.STRING_LIST) {
        List<String> items = new ArrayList<>();
        for (Node item : seq.getValue()) {
          if (!(item instanceof ScalarNode s)) {
            throw new ConfigException("Invalid value for " + name + " in " + where
                + ": expected " + key.allowed());
          }
          items.add(s.getValue());
        }
        text = String.join(",", items);
      } else {
        throw new ConfigException("Invalid value for " + name + " in " + where
            + ": expected " + key.allowed() + ", not a " + valueNode.getNodeId());
      }
      raw.put(name, new Raw(text, file + " line " + line(valueNode)));
    }
  }

  /**
   * Cassandra's nested sections (client_encryption_options: {enabled: true, ...}) as keys
   * "section.key", each with its own line for messages; everything else as it is.
   */
  private static List<NodeTuple> withSections(List<NodeTuple> tuples) {
    List<NodeTuple> out = new ArrayList<>();
    for (NodeTuple t : tuples) {
      if (t.getKeyNode() instanceof ScalarNode k && ConfigKeys.isSection(k.getValue())
          && t.getValueNode() instanceof MappingNode section) {
        for (NodeTuple inner : section.getValue()) {
          if (inner.getKeyNode() instanceof ScalarNode ik) {
            out.add(new NodeTuple(new ScalarNode(Tag.STR, k.getValue() + "." + ik.getValue(),
                ik.getStartMark(), ik.getEndMark(), ik.getScalarStyle()), inner.getValueNode()));
          }
        }
      } else {
        out.add(t);
      }
    }
    return out;
  }

  /** The first scalar under a key named "seeds" anywhere in {@code node}, or null. */
  private static String nestedSeeds(Node node) {
    if (node instanceof MappingNode m) {
      for (NodeTuple t : m.getValue()) {
        if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals("seeds")
            && t.getValueNode() instanceof ScalarNode v) {
          return v.getValue();
        }
        String inner = nestedSeeds(t.getValueNode());
        if (inner != null) {
          return inner;
        }
      }
    } else if (node instanceof SequenceNode seq) {
      for (Node item : seq.getValue()) {
        String inner = nestedSeeds(item);
        if (inner != null) {
          return inner;
        }
      }
    }
    return null;
  }

  private static int line(Node node) {
    return node.getStartMark().getLine() + 1;
  }
}
