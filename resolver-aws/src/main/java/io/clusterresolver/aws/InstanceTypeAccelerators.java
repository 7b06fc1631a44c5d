package io.clusterresolver.aws;

import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.stream.XMLStreamException;

/**
 * The accelerators of each instance type in one {@code DescribeInstanceTypes} answer, read with StAX
 * ({@link AnswerXml}): GPUs ({@code gpuInfo/gpus/item/count}), Neuron devices ({@code neuronInfo/neuronDevices/item/count}) and
 * first-generation inference accelerators ({@code inferenceAcceleratorInfo/accelerators/member/count}), summed
 * per kind, as the SDK's model of the same answer counts them. The SDK's own reading builds a model of every
 * field of every type (about 170 classes and a hundred lambdas on a cold start) for these three numbers.
 *
 * @param types accelerators by kind ({@code GPU}, {@code NEURON}, {@code INFERENTIA}; none: empty) by type name
 */
record InstanceTypeAccelerators(Map<String, Map<String, Integer>> types) {

  /** The root element of every {@code DescribeInstanceTypes} answer. */
  static final String ROOT = "DescribeInstanceTypesResponse";

  /**
   * Reads an answer.
   *
   * @throws XMLStreamException when the body is not a complete, well-formed answer, or a count is not a number
   *     (an empty one neither, as for the SDK's model)
   */
  static InstanceTypeAccelerators read(InputStream body) throws XMLStreamException {
    try (AnswerXml xml = AnswerXml.open(body)) {
      Map<String, Map<String, Integer>> types = new LinkedHashMap<>();
      String type = null;
      Map<String, Integer> devices = null;
      while (xml.next()) {
        int depth = xml.depth();
        String name = xml.name();
        if (!xml.atStart()) {
          if (devices != null && depth == 3) { // the type's item closed
            if (type != null) {
              devices.values().removeIf(sum -> sum <= 0);
              types.put(type, Map.copyOf(devices));
            }
            devices = null;
          }
        } else if (depth == 1 && !name.equals(ROOT)) {
          throw new XMLStreamException("not a " + ROOT + " but <" + name + ">");
        } else if (depth == 3 && name.equals("item") && "instanceTypeSet".equals(xml.ancestor(1))) {
          type = null;
          devices = new TreeMap<>();
        } else if (devices != null && depth == 4 && name.equals("instanceType")) {
          type = xml.text();
        } else if (devices != null && depth == 7 && name.equals("count")) {
          String kind = kind(xml.ancestor(3), xml.ancestor(2), xml.ancestor(1));
          String text = xml.text();
          if (kind != null) {
            add(devices, kind, text);
          }
        }
      }
      xml.requireComplete();
      return new InstanceTypeAccelerators(types);
    }
  }

  /** The kind of accelerator a {@code count} under {@code info/list/member} counts, or {@code null}. */
  private static String kind(String info, String list, String member) {
    if (info.equals("gpuInfo") && list.equals("gpus") && member.equals("item")) {
      return "GPU";
    }
    if (info.equals("neuronInfo") && list.equals("neuronDevices") && member.equals("item")) {
      return "NEURON";
    }
    if (info.equals("inferenceAcceleratorInfo") && list.equals("accelerators") && member.equals("member")) {
      return "INFERENTIA";
    }
    return null;
  }

  private static void add(Map<String, Integer> devices, String kind, String text) throws XMLStreamException {
    int count;
    try {
      count = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new XMLStreamException("an accelerator count '" + text + "' that is not a number");
    }
    devices.merge(kind, count, Integer::sum);
  }
}
