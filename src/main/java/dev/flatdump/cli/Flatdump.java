package dev.flatdump.cli;

public final class Flatdump {
  public static void main(String[] args) {}
}
