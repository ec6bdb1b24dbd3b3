package dev.flatdump;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The house rules of {@code src/main}, read from its class files (docs/architecture.md): each stage
 * of the pipeline imports only the stages before it, Spring only in {@code job} and {@code cli},
 * and no record type of any business: the schema describes the records.
 */
class ArchitectureTest {

  /** The stages, in pipeline order: a stage may import the ones before it, never one after. */
  static final List<String> STAGES =
      List.of("source", "load", "infer", "encode", "artifact", "report", "publish", "job", "cli");

  private static JavaClasses main;

  @BeforeAll
  static void importMainClasses() throws URISyntaxException {
    // the product's classes only: the directory FlatdumpException was compiled into
    Path classes =
        Path.of(
            FlatdumpException.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    main = new ClassFileImporter().importPath(classes);
  }

  @Test
  void everyStageIsAPackageOfTheProduct() {
    for (String stage : STAGES) {
      assertThat(main.containPackage("dev.flatdump." + stage)).as(stage).isTrue();
    }
    assertThat(main.stream().map(c -> c.getPackageName()))
        .as("every class of dev.flatdump lives in a stage, or is the exception family at the top")
        .allMatch(
            p ->
                !p.startsWith("dev.flatdump")
                    || p.equals("dev.flatdump")
                    || STAGES.stream()
                        .anyMatch(
                            s ->
                                p.equals("dev.flatdump." + s)
                                    || p.startsWith("dev.flatdump." + s + ".")));
  }

  static List<String> stages() {
    return STAGES.subList(0, STAGES.size() - 1);
  }

  @ParameterizedTest
  @MethodSource("stages")
  void aStageImportsNoStageAfterIt(String stage) {
    String[] later =
        STAGES.subList(STAGES.indexOf(stage) + 1, STAGES.size()).stream()
            .map(s -> "dev.flatdump." + s + "..")
            .toArray(String[]::new);
    noClasses()
        .that()
        .resideInAPackage("dev.flatdump." + stage + "..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(later)
        .because("the packages follow the pipeline: " + String.join(" → ", STAGES))
        .check(main);
  }

  @Test
  void theArtifactIsWrittenReadAndCheckedByPackagesOfTheirOwn() {
    // artifact: the export's files and layout, and artifact.compress its copies' formats, which the
    // three roles share
    noClasses()
        .that()
        .resideInAPackage("dev.flatdump.artifact")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.flatdump.artifact.write..",
            "dev.flatdump.artifact.read..",
            "dev.flatdump.artifact.check..")
        .check(main);
    noClasses()
        .that()
        .resideInAPackage("dev.flatdump.artifact.compress..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.flatdump.artifact.write..",
            "dev.flatdump.artifact.read..",
            "dev.flatdump.artifact.check..")
        .check(main);
    noClasses()
        .that()
        .resideInAPackage("dev.flatdump.artifact.write..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.flatdump.artifact.read..", "dev.flatdump.artifact.check..")
        .check(main);
    // a reader checks a shard's structure before it reads it: read may use check, not the reverse
    noClasses()
        .that()
        .resideInAPackage("dev.flatdump.artifact.check..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.flatdump.artifact.write..", "dev.flatdump.artifact.read..")
        .check(main);
    noClasses()
        .that()
        .resideInAPackage("dev.flatdump.artifact.read..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.flatdump.artifact.write..")
        .check(main);
  }

  @Test
  void theEncodeStageReadsAsPlanThenEngineThenWhatItDecides() {
    // plan: the schema; engine: BSON into it; encode: what an export decides (rejects, --dedup)
    noClasses()
        .that()
        .resideInAPackage("dev.flatdump.encode.plan..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.flatdump.encode", "dev.flatdump.encode.engine..")
        .check(main);
    noClasses()
        .that()
        .resideInAPackage("dev.flatdump.encode.engine..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.flatdump.encode")
        .check(main);
  }

  @Test
  void theExceptionFamilyImportsNoStage() {
    noClasses()
        .that()
        .resideInAPackage("dev.flatdump")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            STAGES.stream().map(s -> "dev.flatdump." + s + "..").toArray(String[]::new))
        .check(main);
  }

  @Test
  void springOnlyInJobAndCli() {
    noClasses()
        .that()
        .resideOutsideOfPackages("dev.flatdump.job..", "dev.flatdump.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.springframework..")
        .because("pure code knows nothing of Spring; Spring Batch classes are thin adapters")
        .check(main);
  }

  @Test
  void noClassIsNamedAfterABusinessType() {
    List<String> business = Arrays.asList("Org", "Attr", "Organization", "Attribute");
    assertThat(main.stream().map(c -> c.getSimpleName()))
        .as("the schema describes the records; the product names none")
        .noneMatch(
            name ->
                name.contains("Organization")
                    || business.stream()
                        .anyMatch(
                            b -> name.equals(b) || name.matches(b + "(s|Type|Codec|[A-Z].*)")));
    noClasses()
        .should()
        .resideInAPackage("dev.flatdump.schema..")
        .because("the demo schema's generated Java is for the tests and benchmarks")
        .check(main);
  }
}
