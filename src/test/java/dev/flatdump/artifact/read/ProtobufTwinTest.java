package dev.flatdump.artifact.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor.Type;
import com.google.protobuf.Descriptors.FileDescriptor;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.schema.pb.OrganizationsProto;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProtobufTwinTest {

  @TempDir Path dir;

  private SchemaPlan plan(String fbs) throws Exception {
    Path file = dir.resolve("twin.fbs");
    Files.writeString(file, fbs);
    return SchemaPlan.load(file);
  }

  private static FieldDescriptor field(FileDescriptor twin, String message, String name) {
    Descriptor m = twin.findMessageTypeByName(message);
    assertThat(m).as("message %s", message).isNotNull();
    FieldDescriptor f = m.findFieldByName(name);
    assertThat(f).as("field %s.%s", message, name).isNotNull();
    return f;
  }

  /** {@code NAME = number} of each value, in the enum's order. */
  private static List<String> values(EnumDescriptor e) {
    return e.getValues().stream().map(v -> v.getName() + " = " + v.getNumber()).toList();
  }

  @Test
  void givesOrganizationsTheNumbersTypesAndEnumOfTheBundledProto() {
    FileDescriptor twin = ProtobufTwin.of(SchemaFiles.bundled().plan());
    FileDescriptor bundled = OrganizationsProto.getDescriptor();

    assertThat(twin.getName()).isEqualTo("organizations.proto");
    for (String message : List.of("Organizations", "Organization", "Attribute")) {
      Descriptor expected =
          message.equals("Attribute")
              ? bundled.findMessageTypeByName("Organization").findNestedTypeByName("Attribute")
              : bundled.findMessageTypeByName(message);
      Descriptor derived = twin.findMessageTypeByName(message);
      assertThat(shape(derived)).as(message).isEqualTo(shape(expected));
    }
    FieldDescriptor type = field(twin, "Organization", "type");
    assertThat(values(type.getEnumType()))
        .isEqualTo(
            values(
                bundled
                    .findMessageTypeByName("Organization")
                    .findEnumTypeByName("OrganizationType")));
  }

  /** Each field as {@code number name label type}, in number order. */
  private static String shape(Descriptor d) {
    return d.getFields().stream()
        .sorted((a, b) -> Integer.compare(a.getNumber(), b.getNumber()))
        .map(
            f ->
                f.getNumber()
                    + " "
                    + f.getName()
                    + (f.isRepeated() ? " repeated " : " ")
                    + f.getType()
                    + (f.hasPresence() && !f.isRepeated() && f.getType() != Type.MESSAGE
                        ? " optional"
                        : ""))
        .collect(Collectors.joining(", "));
  }

  @Test
  void numbersTableFieldsByIdAndStructFieldsByOrderLeavingOutDeprecatedOnes() throws Exception {
    FileDescriptor twin =
        ProtobufTwin.of(
            plan(
                """
                struct P { y: short; x: double; }
                table R { c: string (id: 2); gone: int (id: 0, deprecated); a: P (id: 1); }
                table Root { rs: [R]; }
                root_type Root;
                """));

    assertThat(shape(twin.findMessageTypeByName("R"))).isEqualTo("2 a MESSAGE, 3 c STRING");
    assertThat(shape(twin.findMessageTypeByName("P"))).isEqualTo("1 y INT32, 2 x DOUBLE");
    assertThat(shape(twin.findMessageTypeByName("Root"))).isEqualTo("1 rs repeated MESSAGE");
  }

  @Test
  void mapsEachKindOntoItsProtobufType() throws Exception {
    FileDescriptor twin =
        ProtobufTwin.of(
            plan(
                """
                enum Color : ubyte { Red, Green }
                table R {
                  b: bool; i8: byte; u8: ubyte; i16: short; u16: ushort; i32: int; u32: uint;
                  i64: long; u64: ulong; f32: float; f64: double; s: string;
                  raw: [ubyte]; signed: [byte]; colors: [Color]; ints: [int]; names: [string];
                  maybe: int = null; maybeColor: Color = null;
                }
                table Root { rs: [R]; }
                root_type Root;
                """));

    assertThat(shape(twin.findMessageTypeByName("R")))
        .isEqualTo(
            "1 b BOOL, 2 i8 INT32, 3 u8 UINT32, 4 i16 INT32, 5 u16 UINT32, 6 i32 INT32, 7 u32"
                + " UINT32, 8 i64 INT64, 9 u64 UINT64, 10 f32 FLOAT, 11 f64 DOUBLE, 12 s STRING, 13"
                + " raw BYTES, 14 signed BYTES, 15 colors repeated ENUM, 16 ints repeated INT32, 17"
                + " names repeated STRING, 18 maybe INT32 optional, 19 maybeColor ENUM optional");
    assertThat(field(twin, "R", "ints").isPacked()).isTrue();
    assertThat(field(twin, "R", "colors").isPacked()).isTrue();
    FieldDescriptor maybe = field(twin, "R", "maybe");
    assertThat(maybe.hasPresence()).isTrue();
    assertThat(maybe.getContainingOneof()).isNotNull();
    assertThat(maybe.getRealContainingOneof()).as("a synthetic oneof").isNull();
    assertThat(field(twin, "R", "i32").hasPresence()).isFalse();
  }

  @Test
  void givesEnumsTheirNumbersWithAZeroFirstAndKeepsValueNamesOfTwoEnumsApart() throws Exception {
    FileDescriptor twin =
        ProtobufTwin.of(
            plan(
                """
                enum Level : byte { Low = -2, Mid = 0, High = 5 }
                enum Shade : short { Low = 1, High = 2 }
                enum Flags : uint (bit_flags) { A, B }
                table R { l: Level; s: Shade = Low; f: Flags; }
                table Root { rs: [R]; }
                root_type Root;
                """));

    assertThat(values(field(twin, "R", "l").getEnumType()))
        .containsExactly("Mid = 0", "Low = -2", "High = 5");
    assertThat(values(field(twin, "R", "s").getEnumType()))
        .containsExactly("SHADE_UNSPECIFIED = 0", "Low = 1", "High = 2");
    assertThat(values(field(twin, "R", "f").getEnumType()))
        .containsExactly("FLAGS_UNSPECIFIED = 0", "A = 1", "B = 2");
    assertThat(field(twin, "R", "l").getEnumType().getFullName()).isEqualTo("flatdump.Level.Level");
    assertThat(field(twin, "R", "s").getEnumType().getFullName()).isEqualTo("flatdump.Shade.Shade");
  }

  @Test
  void makesAnEnumWithAValueOutsideInt32ItsInteger() throws Exception {
    FileDescriptor twin =
        ProtobufTwin.of(
            plan(
                """
                enum Huge : ulong { Zero = 0, Top = 18446744073709551615 }
                enum Wide : uint { Zero = 0, Top = 4294967295 }
                enum Far : long { Bottom = -9223372036854775808, Zero = 0 }
                enum Fits : ulong { Zero = 0, Top = 2147483647 }
                table R { h: Huge; w: Wide; f: Far; fits: Fits; hs: [Huge]; }
                table Root { rs: [R]; }
                root_type Root;
                """));

    assertThat(shape(twin.findMessageTypeByName("R")))
        .isEqualTo("1 h UINT64, 2 w UINT32, 3 f INT64, 4 fits ENUM, 5 hs repeated UINT64");
    assertThat(twin.findMessageTypeByName("Huge")).isNull();
  }

  @Test
  void givesTablesOfTheSameShortNameMessagesOfTheirOwnAndTheRootItsName() throws Exception {
    FileDescriptor twin =
        ProtobufTwin.of(
            plan(
                """
                namespace b;
                table Root { n: int; }
                table T { x: int; }
                namespace a;
                table T { y: string; other: b.T; }
                table R { t: T; bt: b.T; root: b.Root; }
                table Root { rs: [R]; }
                root_type Root;
                """));

    assertThat(shape(twin.findMessageTypeByName("Root"))).isEqualTo("1 rs repeated MESSAGE");
    FieldDescriptor t = field(twin, "R", "t");
    FieldDescriptor bt = field(twin, "R", "bt");
    assertThat(shape(t.getMessageType())).isEqualTo("1 y STRING, 2 other MESSAGE");
    assertThat(shape(bt.getMessageType())).isEqualTo("1 x INT32");
    assertThat(t.getMessageType().getName()).isNotEqualTo(bt.getMessageType().getName());
    assertThat(shape(field(twin, "R", "root").getMessageType())).isEqualTo("1 n INT32");
  }

  @Test
  void namesAnOptionalFieldsOneofApartFromTheOtherFields() throws Exception {
    FileDescriptor twin =
        ProtobufTwin.of(
            plan(
                """
                table R { x: int = null; _x: int = null; }
                table Root { rs: [R]; }
                root_type Root;
                """));

    assertThat(field(twin, "R", "x").getContainingOneof().getName()).isEqualTo("X_x");
    assertThat(field(twin, "R", "_x").getContainingOneof().getName()).isEqualTo("__x");
  }

  @Test
  void refusesAFieldWhoseNumberProtobufReservesNamingIt() throws Exception {
    String fields =
        IntStream.range(0, 19_000).mapToObj(i -> "f" + i + ": int;").collect(Collectors.joining());
    SchemaPlan plan =
        plan("table Wide {" + fields + "} table Root { ws: [Wide]; } root_type Root;");

    assertThatIllegalArgumentException()
        .isThrownBy(() -> ProtobufTwin.of(plan))
        .withMessage(
            "Wide.f18999: its id 18999 would be protobuf field number 19000, which protobuf"
                + " reserves (19000 to 19999)");
  }
}
