package io.clusterresolver.aws;

import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

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
    XMLStreamReader xml = AnswerXml.open(body);
    try {
      Map<String, Map<String, Integer>> types = new LinkedHashMap<>();
      Deque<String> path = new ArrayDeque<>();
      String type = null;
      Map<String, Integer> devices = null;
      boolean ended = false;
      while (xml.hasNext()) {
        int event = xml.next();
        if (event == XMLStreamConstants.START_ELEMENT) {
          String name = xml.getLocalName();
          path.push(name);
          int depth = path.size();
          if (depth == 1 && !name.equals(ROOT)) {
            throw new XMLStreamException("not a " + ROOT + " but <" + name + ">");
          }
          if (depth == 3 && name.equals("item") && "instanceTypeSet".equals(AnswerXml.ancestor(path, 1))) {
            type = null;
            devices = new TreeMap<>();
          } else if (devices != null && depth == 4 && name.equals("instanceType")) {
            type = xml.getElementText();
            path.pop();
          } else if (devices != null && depth == 7 && name.equals("count")) {
            String kind = kind(AnswerXml.ancestor(path, 3), AnswerXml.ancestor(path, 2), AnswerXml.ancestor(path, 1));
            String text = xml.getElementText();
            path.pop();
            if (kind != null) {
              add(devices, kind, text);
            }
          }
        } else if (event == XMLStreamConstants.END_ELEMENT) {
          path.pop();
          if (devices != null && path.size() == 2) { // the type's item closed
            if (type != null) {
              devices.values().removeIf(sum -> sum <= 0);
              types.put(type, Map.copyOf(devices));
            }
            devices = null;
          } else if (path.isEmpty()) {
            ended = true;
          }
        }
      }
      if (!ended) {
        throw new XMLStreamException("the answer ended before its last element closed");
      }
      return new InstanceTypeAccelerators(types);
    } finally {
      xml.close();
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
