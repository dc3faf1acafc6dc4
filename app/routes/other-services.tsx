import { Cpu, Gamepad2, Smartphone, Tv, Wrench } from "#app/components/ui/icons.tsx";
import { Link } from "react-router";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { publicPageHeaders } from "#app/lib/http.server.ts";
import { pageMeta, SHOP_ADDRESS } from "#app/lib/site.ts";
import type { Route } from "./+types/other-services";

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "Free Estimate & Expert Repairs",
    "Electronics repair in Arlington, Texas: PCs, laptops, phones, game consoles, TVs and custom builds. Free diagnostics and estimates.",
  );

export const headers: Route.HeadersFunction = () => publicPageHeaders();

const SERVICES = [
  {
    icon: Cpu,
    name: "PC & Laptop Repair",
    text: "Diagnostics, screens, keyboards, batteries, virus removal and data recovery.",
  },
  {
    icon: Smartphone,
    name: "Mobile Phone Repair",
    text: "Cracked screens, batteries, charging ports, cameras and water damage.",
  },
  {
    icon: Gamepad2,
    name: "Game Console Repair",
    text: "Disc drives, HDMI ports, overheating, controllers and stick drift.",
  },
  {
    icon: Tv,
    name: "TV & Home Electronics",
    text: "Power faults, backlights, sound bars, receivers and players.",
  },
  {
    icon: Wrench,
    name: "Custom Builds & Upgrades",
    text: "Gaming PCs built to order, memory and storage upgrades, tune-ups.",
  },
];

export default function OtherServices() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Free Estimate &amp; Expert Repairs</h1>
      <p className="mt-3 max-w-3xl leading-relaxed text-muted-foreground">
        Bring it in and we will tell you what is wrong and what it costs before we touch it.
        Diagnostics and estimates are free.
      </p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2">
        {SERVICES.map((service) => (
          <li key={service.name} className="flex gap-4 rounded-xl border bg-card p-5 shadow-sm">
            <service.icon aria-hidden="true" className="size-8 shrink-0 text-primary" />
            <div>
              <h2 className="font-semibold">{service.name}</h2>
              <p className="mt-1 text-sm text-muted-foreground">{service.text}</p>
              <Link
                to={`/service-request-form?service=${encodeURIComponent(service.name)}`}
                className="mt-2 inline-block text-sm font-medium text-primary underline"
              >
                Book {service.name}
              </Link>
            </div>
          </li>
        ))}
      </ul>
      <div className="mt-10 flex flex-col items-start gap-3 rounded-xl bg-secondary p-6">
        <p className="font-medium">
          Walk-ins are welcome at {SHOP_ADDRESS}, or book a time that suits you.
        </p>
        <Link to="/service-request-form" className={buttonVariants({ size: "lg" })}>
          Request a Service Appointment
        </Link>
      </div>
    </div>
  );
}
