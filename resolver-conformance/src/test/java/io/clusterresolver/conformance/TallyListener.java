package io.clusterresolver.conformance;

import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/** Prints the total over every conformance file once the whole test run is over. */
public final class TallyListener implements TestExecutionListener {

  @Override
  public void testPlanExecutionFinished(TestPlan testPlan) {
    String total = Tally.totalLine();
    if (!total.isEmpty()) {
      System.out.println(total);
    }
  }
}
