package dev.flatdump.bench.samples;

/**
 * The fixed word lists the generator draws names, categories and countries from. Part of the
 * generator's output contract: changing a list changes every generated data set.
 */
final class Vocabulary {

  private Vocabulary() {}

  static final String[] ADJECTIVES =
      words(
          "Blue Bright Northern Southern Eastern Western Global United First Prime Green Silver"
              + " Golden Red Urban Coastal Alpine Pacific Atlantic Royal Modern Classic Rapid Solid"
              + " Clear Open Smart Swift Bold True Noble Grand Little Central Iron Crystal Summit"
              + " Vivid Quiet Lucky");

  static final String[] NOUNS =
      words(
          "Harbor River Mountain Valley Forest Bridge Tower Field Stone Star Ocean Lake Meadow"
              + " Garden Anchor Beacon Compass Crown Falcon Harvest Horizon Island Lantern Maple"
              + " Orchard Pioneer Quarry Ridge Signal Spring Thunder Tide Union Vector Willow Atlas"
              + " Cedar Delta Echo Frontier");

  static final String[] SUFFIXES =
      words("Inc Ltd Group Holdings Partners Labs Systems Industries Foundation Co");

  /**
   * A few dozen categories; the realistic profile favours the first {@value #COMMON_CATEGORIES}.
   */
  static final String[] CATEGORIES =
      words(
          "Banking Insurance Software Retail Utilities Pharmaceuticals Telecommunications"
              + " Automotive Chemicals Construction Mining Oil&Gas Renewables RealEstate Media"
              + " Hospitality Airlines Shipping Railways Agriculture FoodProducts Beverages Tobacco"
              + " Textiles Apparel Semiconductors Hardware Biotechnology HealthcareProviders"
              + " MedicalDevices Education Logistics Aerospace Defense Steel Paper");

  static final int COMMON_CATEGORIES = 8;

  /**
   * ISO 3166-1 alpha-2 country codes; the realistic profile favours the first {@value
   * #COMMON_COUNTRIES}.
   */
  static final String[] COUNTRIES =
      words(
          "US GB DE FR JP CN CA ES IT NL CH AU SE KR BR"
              + " AD AE AF AG AI AL AM AO AQ AR AS AT AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN"
              + " BO BQ BS BT BV BW BY BZ CC CD CF CG CI CK CL CM CO CR CU CV CW CX CY CZ DJ DK DM"
              + " DO DZ EC EE EG EH ER ET FI FJ FK FM FO GA GD GE GF GG GH GI GL GM GN GP GQ GR GS"
              + " GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS JE JM JO KE KG KH KI KM"
              + " KN KP KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN"
              + " MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NO NP NR NU NZ OM PA PE PF"
              + " PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SG SH SI SJ SK SL"
              + " SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA"
              + " UG UM UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW");

  static final int COMMON_COUNTRIES = 15;

  private static String[] words(String spaceSeparated) {
    return spaceSeparated.split(" ");
  }
}
