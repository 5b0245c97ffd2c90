import { describe, expect, it } from "vitest";
import { departmentFromTitle, isJobTitle, seniorityFromTitle } from "@/lib/providers/first-party/email/job-title";

describe("seniorityFromTitle", () => {
  it.each([
    ["Chief Executive Officer", "executive"],
    ["CEO", "executive"],
    ["Founder & CEO", "executive"],
    ["Co-Founder and CTO", "executive"],
    ["CFO", "executive"],
    ["VP Sales", "executive"],
    ["SVP, Engineering", "executive"],
    ["Vice President of Operations", "executive"],
    ["President", "executive"],
    ["Managing Director", "executive"],
    ["Geschäftsführer", "executive"],
    ["Head of Marketing", "senior"],
    ["Director of Engineering", "senior"],
    ["Senior Software Engineer", "senior"],
    ["Sr. Account Executive", "senior"],
    ["Engineering Lead", "senior"],
    ["Principal Data Scientist", "senior"],
    ["Office Manager", "senior"],
    ["Teamleiterin Vertrieb", "senior"],
    ["Product Owner", "senior"],
    ["Owner", "executive"],
    ["Junior Designer", "junior"],
    ["Jr. Developer", "junior"],
    ["Marketing Intern", "junior"],
    ["Summer Internship, Finance", "junior"],
    ["Executive Assistant to the CEO", "junior"],
    ["Werkstudent Marketing", "junior"],
    ["Software Engineer", null],
    ["Recruiter", null],
    ["", null],
    [null, null],
  ] as const)("%s → %s", (title, expected) => {
    expect(seniorityFromTitle(title)).toBe(expected);
  });

  it("matches whole words only", () => {
    // "sr" inside "Israel", "vp" inside "MVP"
    expect(seniorityFromTitle("MVP Program Coordinator")).toBeNull();
    expect(seniorityFromTitle("Israel Country Representative")).toBeNull();
  });
});

describe("departmentFromTitle", () => {
  it.each([
    ["Chief Executive Officer", "executive"],
    ["CEO", "executive"],
    ["Founder", "executive"],
    ["Managing Director", "executive"],
    ["CTO", "it"],
    ["Co-Founder & CTO", "it"],
    ["Chief Information Security Officer", "it"],
    ["Senior Software Engineer", "it"],
    ["DevOps Lead", "it"],
    ["Data Scientist", "it"],
    ["CFO", "finance"],
    ["Financial Controller", "finance"],
    ["Head of Accounting", "finance"],
    ["VP Sales", "sales"],
    ["Account Executive", "sales"],
    ["Sales Engineer", "sales"],
    ["Business Development Representative", "sales"],
    ["Leiter Vertrieb", "sales"],
    ["General Counsel", "legal"],
    ["Compliance Officer", "legal"],
    ["Paralegal", "legal"],
    ["Customer Success Manager", "support"],
    ["Support Engineer", "support"],
    ["Head of People", "hr"],
    ["Talent Acquisition Partner", "hr"],
    ["Recruiter", "hr"],
    ["jobs", "hr"],
    ["help", "support"],
    ["Head of Marketing", "marketing"],
    ["CMO", "marketing"],
    ["Content Marketing Manager", "marketing"],
    ["SEO Specialist", "marketing"],
    ["PR Manager", "communication"],
    ["Head of Communications", "communication"],
    ["Press Officer", "communication"],
    ["UX Designer", "design"],
    ["Art Director", "design"],
    ["Teacher", "education"],
    ["Corporate Trainer", "education"],
    ["Registered Nurse", "health"],
    ["Physician", "health"],
    ["Office Manager", "operations"],
    ["COO", "operations"],
    ["Supply Chain Analyst", "operations"],
    ["Executive Assistant", "operations"],
    ["Project Manager", "management"],
    ["General Manager", "management"],
    ["Director", "management"],
    ["Consultant", null],
    ["", null],
    [undefined, null],
  ] as const)("%s → %s", (title, expected) => {
    expect(departmentFromTitle(title)).toBe(expected);
  });

  it("matches whole words only", () => {
    // "it" in "Digital", "pr" in "Product", "ops" in "Workshops", "cto" in "Director"; a product owner owns no business
    expect(departmentFromTitle("Digital Product Owner")).toBe("management");
    expect(departmentFromTitle("Workshops Coordinator")).toBeNull();
    expect(departmentFromTitle("Director")).toBe("management");
  });
});

describe("isJobTitle", () => {
  it.each([
    "Treasurer",
    "Secretary",
    "Senior Pastor",
    "Kassenwartin",
    "Bootswart",
    "2. Vorsitzende",
    "Veranstaltungsmanager",
    "Abteilungsleiterin und Übungsleiterin Kinderturnen",
    "Associate, Residential Valuation",
    "Master Binder and proprietor",
    "Registered Dental Hygienist",
    "Head of Engineering",
    "Expert-comptable",
    "Responsable du pôle juridique",
    "Projectleider",
  ])("%s is one", (title) => {
    expect(isJobTitle(title)).toBe(true);
  });

  it.each(["Jane Doe", "Opening Hours", "Scholarship Applications", "", null])("%s is none", (text) => {
    expect(isJobTitle(text)).toBe(false);
  });
});
