package io.clusterresolver.testkit;

import java.util.Objects;

/**
 * The accelerators of one EC2 instance type, as {@code DescribeInstanceTypes} reports them in
 * {@code gpuInfo}, {@code neuronInfo} and {@code inferenceAcceleratorInfo}. Immutable.
 */
public final class SimulatedInstanceType {

  private final String name;
  private final int gpus;
  private final String gpuName;
  private final int neuronDevices;
  private final int inferenceAccelerators;

  private SimulatedInstanceType(String name, int gpus, String gpuName, int neuronDevices, int inferenceAccelerators) {
    this.name = Objects.requireNonNull(name, "name");
    this.gpus = gpus;
    this.gpuName = gpuName;
    this.neuronDevices = neuronDevices;
    this.inferenceAccelerators = inferenceAccelerators;
  }

  /** A type without accelerators. */
  public static SimulatedInstanceType plain(String name) {
    return new SimulatedInstanceType(name, 0, null, 0, 0);
  }

  /** A type with {@code count} NVIDIA GPUs called {@code gpuName} (e.g. {@code A100}). */
  public static SimulatedInstanceType withGpus(String name, int count, String gpuName) {
    return new SimulatedInstanceType(name, count, gpuName, 0, 0);
  }

  /** A type with {@code count} AWS Neuron devices (Trainium, Inferentia2). */
  public static SimulatedInstanceType withNeuronDevices(String name, int count) {
    return new SimulatedInstanceType(name, 0, null, count, 0);
  }

  /** A type with {@code count} (first-generation) inference accelerators. */
  public static SimulatedInstanceType withInferenceAccelerators(String name, int count) {
    return new SimulatedInstanceType(name, 0, null, 0, count);
  }

  public String name() {
    return name;
  }

  public int gpus() {
    return gpus;
  }

  public String gpuName() {
    return gpuName;
  }

  public int neuronDevices() {
    return neuronDevices;
  }

  public int inferenceAccelerators() {
    return inferenceAccelerators;
  }

  @Override
  public String toString() {
    return name + "{gpus=" + gpus + ", neuron=" + neuronDevices + ", inference=" + inferenceAccelerators + "}";
  }
}
