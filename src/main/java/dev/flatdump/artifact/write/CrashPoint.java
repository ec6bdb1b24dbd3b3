package dev.flatdump.artifact.write;

/**
 * Named points where a fault test can make the process die at once, as {@code kill -9} would but at
 * an exact moment: {@code -Dflatdump.crashAt=NAME} halts the JVM (no shutdown hooks, no cleanup,
 * exit code {@value #EXIT_CODE}) when the point {@code NAME} is reached. Without the property every
 * point is a no-op. Points: {@code publish.renamed} (the export's directory is in place, the
 * pointer not yet switched), {@code publish.linked} ({@code current} switched, {@code CURRENT} not
 * yet), {@code publish.pointed} (both switched, old exports not yet removed).
 */
public final class CrashPoint {

  /** The exit code of a JVM halted at a crash point. */
  public static final int EXIT_CODE = 86;

  private static final String AT = System.getProperty("flatdump.crashAt");

  /** Sees every point reached, in this JVM; for tests that check the order of a publish's steps. */
  static volatile java.util.function.Consumer<String> observer = name -> {};

  private CrashPoint() {}

  /** Halts the JVM if {@code -Dflatdump.crashAt} names this point. */
  public static void reached(String name) {
    observer.accept(name);
    if (name.equals(AT)) {
      System.err.println("flatdump: crash point " + name + " reached: halting");
      Runtime.getRuntime().halt(EXIT_CODE);
    }
  }
}
