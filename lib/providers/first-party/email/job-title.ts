/*
 * Seniority and department from a free-text job title, in the vocabularies users know from email-finder APIs.
 * Matching is on whole words of a normalised title ("Sr. VP, Sales & Marketing" → "sr vp sales & marketing"), so
 * "CTO" does not fire inside "director" and "IT" does not fire inside "digital". A few German words are included
 * because German company sites are a large share of the imprint-bearing sites we read.
 */

export type Seniority = "executive" | "senior" | "junior";

export type Department =
  | "executive"
  | "it"
  | "finance"
  | "management"
  | "sales"
  | "legal"
  | "support"
  | "hr"
  | "marketing"
  | "communication"
  | "education"
  | "design"
  | "health"
  | "operations";

/**
 * Lower-case, accents kept, punctuation other than "&" turned into spaces, spaces collapsed. A Scrum "product owner"
 * (or process/project owner) is a manager-level role, not the owner of the business, and is read as one.
 */
function normaliseTitle(title: string): string {
  const words = title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}&]+/gu, " ")
    .trim();
  return ` ${words} `.replace(/ (product|process|project) owner(?= )/g, " $1 manager");
}

/** A matcher for any of `phrases` as whole words of a normalised title. */
function words(...phrases: string[]): (normalised: string) => boolean {
  const alternatives = phrases.map((phrase) => phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+"));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join("|")})(?![\\p{L}\\p{N}])`, "u");
  return (normalised) => pattern.test(normalised);
}

// Junior markers first: an "Executive Assistant" or "Assistant to the CEO" is not an executive.
const JUNIOR = words(
  "junior",
  "jr",
  "intern",
  "interns",
  "internship",
  "trainee",
  "apprentice",
  "apprenticeship",
  "graduate",
  "entry level",
  "working student",
  "werkstudent",
  "werkstudentin",
  "praktikant",
  "praktikantin",
  "auszubildende",
  "auszubildender",
  "azubi",
  "assistant",
  "assistent",
  "assistentin",
);
const EXECUTIVE = words(
  "chief",
  "ceo",
  "cto",
  "cfo",
  "coo",
  "cmo",
  "cio",
  "ciso",
  "cro",
  "cpo",
  "cso",
  "cdo",
  "chro",
  "clo",
  "cco",
  "founder",
  "cofounder",
  "co founder",
  "owner",
  "president",
  "vice president",
  "vp",
  "svp",
  "evp",
  "avp",
  "managing director",
  "managing partner",
  "general partner",
  "executive director",
  "chairman",
  "chairwoman",
  "chairperson",
  "chair",
  "board member",
  "geschäftsführer",
  "geschäftsführerin",
  "vorstand",
  "inhaber",
  "inhaberin",
  "proprietor",
  "vorsitzende",
  "vorsitzender",
  "präsident",
  "präsidentin",
);
const SENIOR = words(
  "senior",
  "sr",
  "head",
  "director",
  "lead",
  "principal",
  "staff engineer",
  "manager",
  "managerin",
  "supervisor",
  "leiter",
  "leiterin",
  "teamleiter",
  "teamleiterin",
  "leitung",
  "architect",
);

export function seniorityFromTitle(title: string | null | undefined): Seniority | null {
  if (title === null || title === undefined) return null;
  const normalised = normaliseTitle(title);
  if (JUNIOR(normalised)) return "junior";
  if (EXECUTIVE(normalised)) return "executive";
  if (SENIOR(normalised)) return "senior";
  return null;
}

// C-level abbreviations name their function: a CTO belongs to IT, a CFO to finance; only the CEO is "executive".
const C_LEVEL: [(normalised: string) => boolean, Department][] = [
  [
    words(
      "cto",
      "cio",
      "ciso",
      "cdo",
      "chief technology officer",
      "chief information officer",
      "chief information security officer",
      "chief data officer",
    ),
    "it",
  ],
  [words("cfo", "chief financial officer", "chief finance officer"), "finance"],
  [words("cmo", "chief marketing officer", "chief growth officer"), "marketing"],
  [words("coo", "chief operating officer", "chief operations officer"), "operations"],
  [words("cro", "chief revenue officer", "chief sales officer", "chief commercial officer"), "sales"],
  [words("chro", "chief people officer", "chief human resources officer"), "hr"],
  [words("clo", "chief legal officer", "general counsel"), "legal"],
  [words("cco", "chief communications officer"), "communication"],
];

// Functions in priority order: the first that matches wins ("Sales Engineer" is sales, "Marketing Designer" marketing).
const FUNCTIONS: [(normalised: string) => boolean, Department][] = [
  [
    words(
      "legal",
      "counsel",
      "lawyer",
      "attorney",
      "paralegal",
      "compliance",
      "data protection officer",
      "dpo",
      "jurist",
      "justiziar",
      "rechtsanwalt",
      "rechtsanwältin",
    ),
    "legal",
  ],
  [
    words(
      "finance",
      "financial",
      "accountant",
      "accounting",
      "accounts payable",
      "accounts receivable",
      "controller",
      "controlling",
      "treasury",
      "treasurer",
      "tax",
      "bookkeeper",
      "auditor",
      "audit",
      "buchhaltung",
      "buchhalter",
      "buchhalterin",
      "kassenwart",
      "kassenwartin",
      "kassierer",
      "kassiererin",
      "schatzmeister",
      "schatzmeisterin",
    ),
    "finance",
  ],
  [
    words(
      "hr",
      "human resources",
      "people",
      "people operations",
      "recruiter",
      "recruiting",
      "recruitment",
      "talent",
      "talent acquisition",
      "payroll",
      "personnel",
      "personalwesen",
      "jobs",
      "careers",
      "karriere",
    ),
    "hr",
  ],
  [
    words(
      "sales",
      "account executive",
      "account manager",
      "key account",
      "business development",
      "bizdev",
      "bdr",
      "sdr",
      "revenue",
      "partnerships",
      "vertrieb",
      "verkauf",
      "vertriebsleiter",
      "vertriebsleiterin",
    ),
    "sales",
  ],
  [
    words(
      "marketing",
      "growth",
      "seo",
      "sem",
      "content",
      "brand",
      "demand generation",
      "social media",
      "community manager",
      "copywriter",
    ),
    "marketing",
  ],
  [
    words(
      "communication",
      "communications",
      "pr",
      "public relations",
      "press",
      "media relations",
      "spokesperson",
      "pressesprecher",
      "pressesprecherin",
      "kommunikation",
      "investor relations",
    ),
    "communication",
  ],
  [
    words(
      "support",
      "help",
      "customer success",
      "customer service",
      "customer care",
      "customer experience",
      "help desk",
      "helpdesk",
      "service desk",
      "kundenservice",
      "kundendienst",
    ),
    "support",
  ],
  [
    words(
      "it",
      "engineer",
      "engineering",
      "developer",
      "development",
      "software",
      "devops",
      "sre",
      "sysadmin",
      "system administrator",
      "systems administrator",
      "infrastructure",
      "platform",
      "backend",
      "frontend",
      "full stack",
      "fullstack",
      "data",
      "qa",
      "machine learning",
      "ml",
      "ai",
      "security",
      "technology",
      "technical",
      "programmer",
      "entwickler",
      "entwicklerin",
      "informatiker",
      "informatikerin",
    ),
    "it",
  ],
  [
    words(
      "design",
      "designer",
      "ux",
      "ui",
      "creative director",
      "art director",
      "illustrator",
      "gestalter",
      "gestalterin",
    ),
    "design",
  ],
  [
    words(
      "teacher",
      "professor",
      "lecturer",
      "tutor",
      "instructor",
      "education",
      "educator",
      "trainer",
      "training",
      "dean",
      "lehrer",
      "lehrerin",
      "rektor",
      "rektorin",
      "konrektor",
      "konrektorin",
      "schulleiter",
      "schulleiterin",
      "librarian",
      "registrar",
      "counselor",
      "counsellor",
    ),
    "education",
  ],
  [
    words(
      "doctor",
      "physician",
      "nurse",
      "medical",
      "clinical",
      "health",
      "healthcare",
      "therapist",
      "pharmacist",
      "dentist",
      "dental",
      "hygienist",
      "orthodontist",
      "physician assistant",
      "surgeon",
      "arzt",
      "ärztin",
    ),
    "health",
  ],
  [
    words(
      "operations",
      "ops",
      "logistics",
      "supply chain",
      "procurement",
      "purchasing",
      "office",
      "facilities",
      "facility",
      "administration",
      "administrative",
      "admin",
      "fleet",
      "warehouse",
      "dispatch",
      "dispatcher",
      "executive assistant",
      "receptionist",
      "einkauf",
      "verwaltung",
      "logistik",
    ),
    "operations",
  ],
];

const EXECUTIVE_FUNCTION = words(
  "ceo",
  "chief executive officer",
  "founder",
  "cofounder",
  "co founder",
  "owner",
  "president",
  "managing director",
  "chairman",
  "chairwoman",
  "chairperson",
  "board member",
  "geschäftsführer",
  "geschäftsführerin",
  "vorstand",
  "inhaber",
  "inhaberin",
);
const MANAGEMENT = words(
  "manager",
  "management",
  "managerin",
  "general manager",
  "project manager",
  "program manager",
  "programme manager",
  "product manager",
  "product owner",
  "director",
  "head",
  "projektleiter",
  "projektleiterin",
);

export function departmentFromTitle(title: string | null | undefined): Department | null {
  if (title === null || title === undefined) return null;
  const normalised = normaliseTitle(title);
  for (const [matches, department] of C_LEVEL) if (matches(normalised)) return department;
  for (const [matches, department] of FUNCTIONS) if (matches(normalised)) return department;
  if (EXECUTIVE_FUNCTION(normalised)) return "executive";
  if (MANAGEMENT(normalised)) return "management";
  return null;
}

// Offices of clubs, churches, schools and firms that name no seniority or department of their own ("Secretary",
// "Pastor", "Schriftführerin", "Gérant"), so that text beside an address can be read as a position.
const OFFICE_HOLDER = words(
  "secretary",
  "schriftführer",
  "schriftführerin",
  "beisitzer",
  "beisitzerin",
  "jugendwart",
  "jugendwartin",
  "sportwart",
  "sportwartin",
  "pressewart",
  "pressewartin",
  "trustee",
  "pastor",
  "pfarrer",
  "pfarrerin",
  "priest",
  "vicar",
  "rector",
  "deacon",
  "chaplain",
  "minister",
  "organist",
  "coach",
  "coordinator",
  "koordinator",
  "koordinatorin",
  "officer",
  "representative",
  "consultant",
  "specialist",
  "advisor",
  "adviser",
  "berater",
  "beraterin",
  "referent",
  "referentin",
  "sachbearbeiter",
  "sachbearbeiterin",
  "mitarbeiter",
  "mitarbeiterin",
  "clerk",
  "bursar",
  "superintendent",
  "webmaster",
  "editor",
  "redakteur",
  "redakteurin",
  "partner",
  "associate",
  "agent",
  "broker",
  "technician",
  "mechanic",
  "administrator",
  "volunteer",
  "conservator",
  "curator",
  "archivist",
  "hygienist",
  // French and Dutch offices of firms and associations.
  "expert comptable",
  "comptable",
  "associé",
  "associée",
  "gérant",
  "gérante",
  "avocat",
  "avocate",
  "notaire",
  "commissaire",
  "juriste",
  "responsable",
  "directeur",
  "directrice",
  "secrétaire",
  "président",
  "présidente",
  "trésorier",
  "trésorière",
  "chargé",
  "chargée",
  "conseiller",
  "conseillère",
  "eigenaar",
  "vennoot",
  "medewerker",
  "medewerkster",
  "projectleider",
  "architect",
  "ontwerper",
);

// German offices are compounds: Bootswart, Veranstaltungsmanager, Abteilungsleiterin, Datenschutzbeauftragter.
const GERMAN_OFFICE_COMPOUND =
  /\p{L}{3,}(?:wart|wartin|manager|managerin|leiter|leiterin|leitung|referent|referentin|beauftragte|beauftragter|sprecher|sprecherin|koordinator|koordinatorin|berater|beraterin|assistent|assistentin|sekretär|sekretärin|vorsitzende|vorsitzender|trainer|trainerin|planer|planerin)(?![\p{L}])/u;

/** Whether the text reads as a job title or an office someone holds ("Treasurer", "Head of Sales", "Kassenwart"). */
export function isJobTitle(text: string | null | undefined): boolean {
  if (text === null || text === undefined) return false;
  const normalised = normaliseTitle(text);
  return (
    seniorityFromTitle(text) !== null ||
    departmentFromTitle(text) !== null ||
    OFFICE_HOLDER(normalised) ||
    GERMAN_OFFICE_COMPOUND.test(normalised)
  );
}
