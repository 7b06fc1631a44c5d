package io.clusterresolver.testkit;

import java.time.Instant;

/**
 * Ready-made worlds for a {@link SimulatedAzure}, shared by the provider's tests, the command's
 * tests and the benchmarks. Each only adds VMs; what a correct resolver makes of them is for the
 * caller to work out from {@link SimulatedAzure#vms()}.
 */
public final class AzureScenarios {

  /** The resource group of {@link #mixedResourceGroup}. */
  public static final String MIXED_RG = "cluster-rg";

  private AzureScenarios() {}

  /**
   * {@code n} VMs in resource group {@value #MIXED_RG}, its name spelled {@code cluster-rg},
   * {@code Cluster-RG} or {@code CLUSTER-RG} by VM ({@code i % 3}), built to trip a careless resolver:
   *
   * <ul>
   *   <li>tag {@code cluster=llm}, except decoys: {@code cluster=llm-old} ({@code i % 11 == 0}),
   *       the tag name {@code Cluster} ({@code i % 13 == 0}) and no tag ({@code i % 17 == 0});
   *   <li>tag {@code role}: {@code chief} for VM 7, {@code ps} when {@code i % 5 == 0}, else
   *       {@code worker}; none when {@code i % 19 == 0};
   *   <li>power state {@code stopped} ({@code i % 7 == 3}), {@code deallocated} ({@code i % 7 == 5}),
   *       {@code starting} ({@code i % 23 == 1}), else running; provisioning state {@code Updating}
   *       ({@code i % 9 == 2}) or {@code Failed} ({@code i % 9 == 4}) on running VMs too;
   *   <li>two NICs when {@code i % 6 == 1}: a secondary one listed first ({@code 10.2.x.y}), then the primary;
   *   <li>creation-time ties: VMs {@code 10k+7}, {@code 10k+8} and {@code 10k+9} were created in the
   *       same instant (and spell the resource group differently);
   *   <li>size {@code Standard_ND96asr_v4} (8 GPUs) when {@code i % 25 == 0}, else {@code Standard_D4s_v3};
   *       location {@code westus2} when {@code i % 40 == 0}, else {@code eastus}.
   * </ul>
   */
  public static SimulatedAzure mixedResourceGroup(SimulatedAzure azure, int n) {
    for (int i = 0; i < n; i++) {
      azure.add(mixed(i).build());
    }
    return azure;
  }

  static SimulatedVm.Builder mixed(int i) {
    String[] spellings = {"cluster-rg", "Cluster-RG", "CLUSTER-RG"};
    SimulatedVm.Builder b = SimulatedVm.typical(i).resourceGroup(spellings[i % 3]);
    if (i % 11 == 0) {
      b.tag("cluster", "llm-old");
    } else if (i % 13 == 0) {
      b.tag("Cluster", "llm");
    } else if (i % 17 != 0) {
      b.tag("cluster", "llm");
    }
    if (i % 19 != 0) {
      b.tag("role", i == 7 ? "chief" : i % 5 == 0 ? "ps" : "worker");
    }
    if (i % 7 == 3) {
      b.powerState("stopped");
    } else if (i % 7 == 5) {
      b.powerState("deallocated");
    } else if (i % 23 == 1) {
      b.powerState("starting");
    }
    if (i % 9 == 2) {
      b.provisioningState("Updating");
    } else if (i % 9 == 4) {
      b.provisioningState("Failed");
    }
    if (i % 6 == 1) {
      SimulatedVm.Nic primary = SimulatedVm.typical(i).build().nics().get(0);
      b.clearNics()
          .nic(new SimulatedVm.Nic(String.format("vm-%04d-nic2", i), "10.2." + (i / 250) + "." + (i % 250 + 4), null, false))
          .nic(primary);
    }
    if (i % 10 >= 7) {
      b.timeCreated(SimulatedVm.TYPICAL_EPOCH.plusSeconds(i - i % 10 + 7));
    }
    b.size(i % 25 == 0 ? "Standard_ND96asr_v4" : "Standard_D4s_v3");
    b.location(i % 40 == 0 ? "westus2" : "eastus");
    return b;
  }

  /**
   * A Uniform scale set {@code name} of {@code n} running instances ({@code Standard_NC24ads_A100_v4},
   * 1 GPU) in {@code resourceGroup}: instance ids {@code 0..n-1}, created in the reverse order of
   * their ids (so creation order is not id order), NICs {@code 10.3.x.y}.
   */
  public static SimulatedAzure uniformScaleSet(SimulatedAzure azure, String resourceGroup, String name, int n) {
    azure.scaleSet(new SimulatedAzure.ScaleSet(name, resourceGroup, true, "eastus", "Standard_NC24ads_A100_v4"));
    for (int i = 0; i < n; i++) {
      String ip = "10.3." + (i / 250) + "." + (i % 250 + 4);
      azure.add(SimulatedVm.builder(name + "_" + i).resourceGroup(resourceGroup).scaleSet(name).instanceId(Integer.toString(i))
          .size("Standard_NC24ads_A100_v4").tag("pool", name)
          .timeCreated(Instant.parse("2026-04-01T00:00:00Z").minusSeconds(i))
          .nic(new SimulatedVm.Nic(name + "-nic", ip, "20.3." + (i / 250) + "." + (i % 250 + 4), true)).build());
    }
    return azure;
  }
}
